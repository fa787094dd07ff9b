package dev.outboxrelay.servers.internal;

import dev.outboxrelay.servers.ServerStartException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/** Command lines for server JVMs whose classpath a runtime module recorded as a resource. */
public final class JavaProcess {
  private JavaProcess() {}

  /**
   * The classpath recorded in {@code dev/outboxrelay/testing/runtime/<name>.classpath}.
   *
   * @throws ServerStartException if the resource is missing or names jars that are gone
   */
  public static String recordedClasspath(String name) {
    String resource = "/dev/outboxrelay/testing/runtime/" + name + ".classpath";
    try (InputStream in = JavaProcess.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new ServerStartException(
            "Missing "
                + resource
                + ": outbox-testing-runtime-"
                + name
                + " is not on the classpath");
      }
      String cp = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
      for (String jar : cp.split(java.io.File.pathSeparator)) {
        if (!Files.exists(Paths.get(jar))) {
          throw new ServerStartException(
              "The recorded "
                  + name
                  + " classpath names "
                  + jar
                  + ", which is missing; rebuild"
                  + " outbox-testing-runtime-"
                  + name
                  + " (mvn install) on this machine");
        }
      }
      return cp;
    } catch (IOException e) {
      throw new ServerStartException("Could not read " + resource, e);
    }
  }

  /** {@code java <jvmArgs> -cp <classpath> <mainClass> <args>} with the running JVM's java. */
  public static List<String> command(
      String classpath, List<String> jvmArgs, String mainClass, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(mainClass);
    cmd.addAll(args);
    return cmd;
  }

  /** Writes a properties-style file. */
  public static void writeLines(Path file, List<String> lines) {
    try {
      Files.write(file, lines, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ServerStartException("Could not write " + file, e);
    }
  }
}
