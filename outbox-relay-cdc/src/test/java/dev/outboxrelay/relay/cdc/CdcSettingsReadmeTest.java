package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.Setting;
import dev.outboxrelay.testing.SettingsTable;
import dev.outboxrelay.testing.SettingsTable.Row;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's settings table names every declared setting with its declared default. */
class CdcSettingsReadmeTest {
  @Test
  void theReadmeTableMatchesTheDeclarations() {
    List<Row> rows =
        SettingsTable.read(Path.of("README.md"), "## Settings").stream()
            // backoff(initial, max) is one builder method for two settings
            .map(
                r ->
                    r.names().equals(List.of("backoff(initial, max)"))
                        ? new Row(
                            List.of("backoffInitial", "backoffMax"),
                            List.of(r.defaults().get(0).split(", ")))
                        : r)
            .toList();
    SettingsTable.check(rows, CdcSettings.ALL, Setting::javaName);
  }
}
