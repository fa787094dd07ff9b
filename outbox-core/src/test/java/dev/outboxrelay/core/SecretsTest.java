package dev.outboxrelay.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretsTest {

  @Test
  void urlParametersAndUserInfoPasswordsAreMaskedAndTheRestOfTheUrlIsKept() {
    assertThat(
            Secrets.maskUrl(
                "jdbc:postgresql://db:5432/app?user=outbox&password=canary-1&sslmode=require"))
        .isEqualTo("jdbc:postgresql://db:5432/app?user=outbox&password=******&sslmode=require");
    assertThat(Secrets.maskUrl("jdbc:mysql://outbox:canary-2@db:3306/app"))
        .isEqualTo("jdbc:mysql://outbox:******@db:3306/app");
    assertThat(Secrets.maskUrl("jdbc:mariadb://db/app;trustStorePassword=canary-3;x=1"))
        .isEqualTo("jdbc:mariadb://db/app;trustStorePassword=******;x=1");
  }

  @Test
  void textIsMaskedByKeyNeverByValue() {
    // The password 'outbox' is not searched for: text that merely contains it stays readable.
    assertThat(Secrets.maskText("dev.outboxrelay started, password: outbox"))
        .isEqualTo("dev.outboxrelay started, password: ******");
    assertThat(Secrets.maskText("{\"token\":\"canary-4\",\"n\":1}"))
        .isEqualTo("{\"token\":******,\"n\":1}");
    assertThat(
            Secrets.maskText(
                "sasl.jaas.config = PlainLoginModule required username=\"u\""
                    + " password=\"canary-5\";"))
        .doesNotContain("canary-5")
        .contains("username=\"u\"");
    assertThat(Secrets.maskText("nothing secret here")).isEqualTo("nothing secret here");
  }

  @Test
  void keysThatOnlyMentionASecretWordStayReadable() {
    // A key is secret when its name ends with the word: these are paths, types and protocol names.
    String kafkaLines =
        "ssl.keystore.location = /etc/k.jks ssl.keystore.type = JKS"
            + " sasl.oauthbearer.token.endpoint.url = https://idp/t RequestHeader(apiKey=METADATA,";
    assertThat(Secrets.maskText(kafkaLines)).isEqualTo(kafkaLines);
    assertThat(Secrets.isSecretKey("sasl.oauthbearer.client.credentials.client.secret")).isTrue();
    assertThat(Secrets.isSecretKey("apiKey")).isTrue();
    assertThat(Secrets.isSecretKey("ssl.keystore.location")).isFalse();
  }

  @Test
  void propertiesAreMaskedByKeyAndSorted() {
    assertThat(
            Secrets.maskProperties(
                Map.of(
                    "sasl.jaas.config", "x required password=\"canary-6\";",
                    "bootstrap.servers", "k:9092",
                    "secretKey", "canary-7")))
        .containsExactly(
            Map.entry("bootstrap.servers", "k:9092"),
            Map.entry("sasl.jaas.config", Secrets.MASK),
            Map.entry("secretKey", Secrets.MASK));
  }

  @Test
  void aPropertiesDumpAlsoMasksKeysThatNearlyNameASecret() {
    assertThat(
            Secrets.maskProperties(
                Map.of(
                    "secertKey", "canary-10",
                    "ssl.key.pasword", "canary-11",
                    "sasl.jaas.confg", "canary-12",
                    "bootstrap.servers", "k:9092",
                    "retries", "3",
                    "namesrvAddr", "n:9876",
                    "linger.ms", "5")))
        .containsEntry("secertKey", Secrets.MASK)
        .containsEntry("ssl.key.pasword", Secrets.MASK)
        .containsEntry("sasl.jaas.confg", Secrets.MASK)
        .containsEntry("bootstrap.servers", "k:9092")
        .containsEntry("retries", "3")
        .containsEntry("namesrvAddr", "n:9876")
        .containsEntry("linger.ms", "5");
  }

  @Test
  void aSecretKeyMasksTheValueAndOtherValuesKeepTheirTextButNotTheirEmbeddedSecrets() {
    assertThat(Secrets.maskIfSecret("relays[0].database.password", "canary-8")).isEqualTo("******");
    assertThat(Secrets.maskIfSecret("relays[0].database.url", "jdbc:x://h/d?password=canary-9"))
        .isEqualTo("'jdbc:x://h/d?password=******'");
    assertThat(new OutboxConfigException("relays[0].database.pasword", "is not a known key"))
        .hasMessage("relays[0].database.pasword is not a known key");
  }
}
