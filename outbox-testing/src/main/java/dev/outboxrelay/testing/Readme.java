package dev.outboxrelay.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parts of a README that tests hold to the code: a section, and a code block in it, so that an
 * example a README shows is the one a test runs.
 */
public final class Readme {
  private Readme() {}

  /**
   * The README's text from the heading line starting with {@code heading} to its end.
   *
   * @throws AssertionError if there is no such heading
   */
  public static String from(Path readme, String heading) {
    String text;
    try {
      text = Files.readString(readme);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int at = text.indexOf("\n" + heading);
    if (at < 0) {
      throw new AssertionError(readme + " has no heading " + heading);
    }
    return text.substring(at + 1);
  }

  /**
   * The content of the first {@code language} code block in the section under the heading line
   * starting with {@code heading} (up to the next {@code ## } heading), as written.
   *
   * @throws AssertionError if the section has no such block
   */
  public static String codeBlock(Path readme, String heading, String language) {
    String section = from(readme, heading);
    int next = section.indexOf("\n## ");
    Matcher m =
        Pattern.compile("```" + Pattern.quote(language) + "\\n(.*?)```", Pattern.DOTALL)
            .matcher(next < 0 ? section : section.substring(0, next));
    if (!m.find()) {
      throw new AssertionError(readme + " has no " + language + " block under " + heading);
    }
    return m.group(1);
  }
}
