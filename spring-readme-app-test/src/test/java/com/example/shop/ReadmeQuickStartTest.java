package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  private static String quickStartBlock(String language) throws Exception {
    String readme = Files.readString(README);
    int start = readme.indexOf("\n## Quick start\n");
    assertThat(start).as("the README's Quick start section").isNotNegative();
    int end = readme.indexOf("\n## ", start + 1);
    Matcher m =
        Pattern.compile("```" + language + "\\n(.*?)```", Pattern.DOTALL)
            .matcher(readme.substring(start, end));
    assertThat(m.find()).as("a " + language + " block in the quick start").isTrue();
    return m.group(1);
  }
}
