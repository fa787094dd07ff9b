package dev.outboxrelay.testing;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.outboxrelay.core.PublisherFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.UUID;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A third party's publisher jar, compiled and packaged at test time against outbox-core only, as
 * its author would: {@code com.example.recording.RecordingPublisherFactory}, named {@value #TYPE},
 * listed in {@code META-INF/services}. Its publisher appends {@code "<aggregateid> <id> <topic>"}
 * per message to the file of the setting {@value #FILE_SETTING} and acknowledges; its broker reader
 * ({@code PublisherFactory.brokerCheck}) reads that file back, so {@link #lose} makes a message
 * lost on the broker. Needs a JDK.
 */
public final class RecordingPublisherJar {
  public static final String TYPE = "recording";
  public static final String FILE_SETTING = "file";
  private static final String CLASS = "com.example.recording.RecordingPublisherFactory";

  private RecordingPublisherJar() {}

  /** Compiles the factory and writes {@code recording-publisher.jar} under {@code dir}. */
  public static Path build(Path dir) throws IOException {
    Path src = dir.resolve("src/" + CLASS.replace('.', '/') + ".java");
    Path classes = dir.resolve("classes");
    Files.createDirectories(src.getParent());
    Files.createDirectories(classes);
    try (InputStream in =
        RecordingPublisherJar.class.getResourceAsStream("RecordingPublisherFactory.java.txt")) {
      Files.write(src, in.readAllBytes());
    }
    compile(src, classes);
    Path jar = dir.resolve("recording-publisher.jar");
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest);
        Stream<Path> files = Files.walk(classes)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
        out.write(Files.readAllBytes(f));
      }
      out.putNextEntry(new JarEntry("META-INF/services/" + PublisherFactory.class.getName()));
      out.write((CLASS + "\n").getBytes(UTF_8));
    }
    return jar;
  }

  /** The ids the publisher recorded for {@code key}, in the order it was handed them. */
  public static List<UUID> recorded(Path file, String key) throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    return Files.readAllLines(file).stream()
        .map(l -> l.split(" "))
        .filter(p -> p[0].equals(key))
        .map(p -> UUID.fromString(p[1]))
        .toList();
  }

  /**
   * Takes the message {@code id} out of the record, as a broker that lost it. Call it while nothing
   * publishes to the file; the file is replaced at once (a move), so a reader never sees half of
   * it.
   */
  public static void lose(Path file, UUID id) throws IOException {
    Path rest = file.resolveSibling(file.getFileName() + ".tmp");
    List<String> kept =
        Files.readAllLines(file).stream().filter(l -> !l.split(" ")[1].equals("" + id)).toList();
    Files.write(rest, kept);
    Files.move(rest, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static void compile(Path src, Path classes) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException("No Java compiler: run the tests on a JDK, not a JRE");
    }
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    String[] args = {
      "--release", "17", "-classpath", outboxCore(), "-d", classes.toString(), src.toString()
    };
    if (javac.run(null, diagnostics, diagnostics, args) != 0) {
      throw new IllegalStateException(
          "The recording publisher does not compile: " + diagnostics.toString(UTF_8));
    }
  }

  /** Only outbox-core, the SPI's module: the plugin must not need anything else. */
  private static String outboxCore() {
    try {
      return Path.of(
              PublisherFactory.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
