package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.testing.Readme;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The starter README's quick start shows this application's own files, whole: the service
 * {@code ReadmeApplicationIT} runs and its {@code application.properties}. So the README's example
 * is the one that runs, with only the dependencies the README names.
 */
class ReadmeQuickStartTest {
  private static final Path README = Path.of("../outbox-spring-boot-starter/README.md");

  @Test
  void theQuickStartsServiceIsTheApplicationsOrderService() throws Exception {
    assertThat(quickStartBlock("java"))
        .isEqualTo(Files.readString(Path.of("src/main/java/com/example/shop/OrderService.java")));
  }

  @Test
  void theQuickStartsPropertiesAreTheApplicationsProperties() throws Exception {
    assertThat(quickStartBlock("properties"))
        .isEqualTo(Files.readString(Path.of("src/main/resources/application.properties")));
  }

  private static String quickStartBlock(String language) {
    return Readme.codeBlock(README, "## Quick start", language);
  }
}
