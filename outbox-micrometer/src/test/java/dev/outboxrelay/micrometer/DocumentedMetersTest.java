package dev.outboxrelay.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The meter table is the same in this module's README, the daemon's and the starter's, and lists
 * exactly the meters of {@link RelayMeter} with their Prometheus names.
 */
class DocumentedMetersTest {
  private static final Pattern ROW =
      Pattern.compile("(?m)^\\| `(outbox\\.[a-z.]+)` \\| `(outbox_[a-z_]+)` \\|.*$");
  private static final List<String> READMES =
      List.of(
          "README.md",
          "../outbox-relay-daemon/README.md",
          "../outbox-spring-boot-starter/README.md");

  @Test
  void theThreeReadmesShowTheSameTableOfEveryMeter() throws IOException {
    List<String> expected =
        Arrays.stream(RelayMeter.values())
            .map(m -> m.meterName() + " " + m.prometheusName())
            .sorted()
            .toList();
    List<String> first = rows(READMES.get(0));
    for (String readme : READMES) {
      List<String> rows = rows(readme);
      assertThat(rows).as(readme).isEqualTo(first);
      assertThat(
              rows.stream()
                  .map(
                      r -> {
                        Matcher m = ROW.matcher(r);
                        assertThat(m.matches()).isTrue();
                        return m.group(1) + " " + m.group(2);
                      })
                  .sorted()
                  .toList())
          .as("meters documented in " + readme)
          .isEqualTo(expected);
    }
  }

  private static List<String> rows(String readme) throws IOException {
    Matcher m = ROW.matcher(Files.readString(Path.of(readme)));
    return m.results().map(r -> r.group()).toList();
  }
}
