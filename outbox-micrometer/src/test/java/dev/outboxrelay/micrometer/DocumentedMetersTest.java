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
 * exactly the meters of {@link RelayMeter} with their Prometheus names; the reconciliation meters
 * ({@link ReconcileMeter}, the daemon only) have their own table here and in the daemon's README.
 */
class DocumentedMetersTest {
  private static final Pattern ROW =
      Pattern.compile("(?m)^\\| `(outbox\\.[a-z.]+)` \\| `(outbox_[a-z_]+)` \\|.*$");
  private static final String RECONCILE_MARKER = "<!-- reconcile-meters-table";
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

  @Test
  void theReconciliationTableIsTheSameHereAndInTheDaemonsReadme() throws IOException {
    List<String> expected =
        Arrays.stream(ReconcileMeter.values())
            .map(m -> m.meterName() + " " + m.prometheusName())
            .sorted()
            .toList();
    for (String readme : List.of(READMES.get(0), READMES.get(1))) {
      List<String> rows = rows(readme, RECONCILE_MARKER);
      assertThat(rows).as(readme).isEqualTo(rows(READMES.get(0), RECONCILE_MARKER));
      assertThat(rows.stream().map(DocumentedMetersTest::names).sorted().toList())
          .as("reconciliation meters documented in " + readme)
          .isEqualTo(expected);
    }
  }

  private static String names(String row) {
    Matcher m = ROW.matcher(row);
    assertThat(m.matches()).isTrue();
    return m.group(1) + " " + m.group(2);
  }

  /** The rows of the relay meters' table: every meter row not in the reconciliation table. */
  private static List<String> rows(String readme) throws IOException {
    Matcher m = ROW.matcher(Files.readString(Path.of(readme)));
    List<String> reconcile = rows(readme, RECONCILE_MARKER);
    return m.results().map(r -> r.group()).filter(r -> !reconcile.contains(r)).toList();
  }

  /** The meter rows of the table that follows {@code marker}. */
  private static List<String> rows(String readme, String marker) throws IOException {
    String text = Files.readString(Path.of(readme));
    int at = text.indexOf(marker);
    if (at < 0) {
      return List.of();
    }
    String table = text.substring(at).split("\n\n", 2)[0];
    return ROW.matcher(table).results().map(r -> r.group()).toList();
  }
}
