package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.Setting;
import dev.outboxrelay.testing.SettingsTable;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's settings table names every declared setting with its declared default. */
class PollingSettingsReadmeTest {
  @Test
  void theReadmeTableMatchesTheDeclarations() {
    SettingsTable.check(
        SettingsTable.read(Path.of("README.md"), "## Settings"),
        PollingSettings.ALL,
        Setting::javaName);
  }
}
