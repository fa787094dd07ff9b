package dev.outboxrelay.it;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The ERROR lines logged, by any thread, while it is open. This module logs through slf4j-simple,
 * which writes each line to whatever {@code System.err} is at that moment (its output stream is not
 * cached): so this tees {@code System.err}, keeps the output visible, and picks the lines at level
 * ERROR (format {@code HH:mm:ss.SSS [thread] ERROR logger - message}).
 */
public final class ErrorLog implements AutoCloseable {
  private static final Pattern ERROR_LINE = Pattern.compile("^\\S+ \\[[^]]*] ERROR .*");
  private final PrintStream original = System.err;
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  private ErrorLog() {
    OutputStream tee =
        new OutputStream() {
          @Override
          public void write(int b) {
            original.write(b);
            synchronized (captured) {
              captured.write(b);
            }
          }

          @Override
          public void write(byte[] b, int off, int len) {
            original.write(b, off, len);
            synchronized (captured) {
              captured.write(b, off, len);
            }
          }
        };
    System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
  }

  public static ErrorLog capture() {
    return new ErrorLog();
  }

  /** ERROR lines so far (stack traces left out). */
  public List<String> errors() {
    return lines().filter(l -> ERROR_LINE.matcher(l).matches()).toList();
  }

  /** Lines so far that contain {@code text}. */
  public List<String> containing(String text) {
    return lines().filter(l -> l.contains(text)).toList();
  }

  private java.util.stream.Stream<String> lines() {
    synchronized (captured) {
      return Arrays.stream(captured.toString(StandardCharsets.UTF_8).split("\n"));
    }
  }

  @Override
  public void close() {
    System.err.flush();
    System.setErr(original);
  }
}
