package dev.outboxrelay.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TableContractTest {

  @ParameterizedTest
  @ValueSource(strings = {"outbox; DROP TABLE x", "a\"b", "a`b", "1abc", "", "a b", "x.y"})
  void rejectsNamesThatAreNotIdentifiers(String bad) {
    assertThatThrownBy(() -> OutboxTable.builder().name(bad))
        .isInstanceOfSatisfying(
            OutboxConfigException.class, e -> assertThat(e.key()).isEqualTo("table"))
        .hasMessageContaining("table must be an identifier")
        .hasMessageContaining("but was '" + bad + "'");
  }

  @Test
  void rejectsOverlongNames() {
    assertThatThrownBy(() -> OutboxTable.builder().column(OutboxColumn.PAYLOAD, "p".repeat(64)))
        .hasMessageStartingWith("columns.payload must be an identifier");
  }

  @Test
  void quotesPerDialect() {
    OutboxTable t = OutboxTable.builder().schema("app").name("Events").build();
    assertThat(t.qualifiedName(SqlDialect.POSTGRESQL)).isEqualTo("\"app\".\"Events\"");
    assertThat(t.qualifiedName(SqlDialect.MARIADB)).isEqualTo("`app`.`Events`");
    assertThat(t.quoted(SqlDialect.MYSQL, OutboxColumn.SEQUENCE)).isEqualTo("`seq`");
  }

  @Test
  void detectsDialectFromProductName() {
    assertThat(SqlDialect.fromProductName("PostgreSQL")).isEqualTo(SqlDialect.POSTGRESQL);
    assertThat(SqlDialect.fromProductName("MariaDB")).isEqualTo(SqlDialect.MARIADB);
    assertThat(SqlDialect.fromProductName("MySQL")).isEqualTo(SqlDialect.MYSQL);
    assertThatThrownBy(() -> SqlDialect.fromProductName("Oracle"))
        .hasMessage("dialect must be PostgreSQL, MySQL or MariaDB, but was 'Oracle'");
  }

  @Test
  void topicTemplateUsesAggregateType() {
    OutboxMessage m =
        OutboxMessage.builder()
            .aggregateType("order")
            .aggregateId("1")
            .type("t")
            .payload("")
            .build();
    assertThat(TopicTemplate.defaultTemplate().topicFor(m)).isEqualTo("outbox.event.order");
    assertThat(TopicTemplate.of("events-${aggregatetype}-v1").topicFor(m))
        .isEqualTo("events-order-v1");
    assertThatThrownBy(() -> TopicTemplate.of(" ")).isInstanceOf(OutboxConfigException.class);
  }

  @Test
  void secretsAreMaskedByKeyPattern() {
    assertThat(Secrets.maskIfSecret("sasl.jaas.config", "canary-123")).doesNotContain("canary");
    assertThat(Secrets.maskIfSecret("db.password", "canary-123")).doesNotContain("canary");
    assertThat(
            new OutboxConfigException("ssl.keystore.password", "canary-123", "must be set")
                .getMessage())
        .doesNotContain("canary");
    assertThat(Secrets.maskIfSecret("batchSize", 0)).isEqualTo("0");
  }
}
