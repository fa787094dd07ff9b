package dev.outboxrelay.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.outboxrelay.benchmarks.archfixture.BenchmarkUsingServerInternals;
import dev.outboxrelay.dedup.archfixture.DedupThatImportsTheWriter;
import dev.outboxrelay.publisher.archfixture.FakeKafkaPublisher;
import dev.outboxrelay.relay.archfixture.RelayThatImportsAPublisher;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.relay.engine.archfixture.EngineThatImportsThePollingRelay;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.rocketmqtx.RocketMqTransactionalOutbox;
import dev.outboxrelay.rocketmqtx.archfixture.TransactionalOutboxThatImportsARelay;
import dev.outboxrelay.servers.internal.Ports;
import dev.outboxrelay.writer.archfixture.WriterThatImportsDedup;
import org.junit.jupiter.api.Test;

/** The rules can fail: each is shown a fixture that breaks it. */
class DependencyRulesSelfTest {

  @Test
  void relayImportingAPublisherImplementationIsRejected() {
    JavaClasses classes =
        new ClassFileImporter()
            .importClasses(RelayThatImportsAPublisher.class, FakeKafkaPublisher.class);
    assertThatThrownBy(
            () -> DependencyRules.RELAYS_NEVER_DEPEND_ON_PUBLISHER_IMPLEMENTATIONS.check(classes))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("RelayThatImportsAPublisher")
        .hasMessageContaining("FakeKafkaPublisher");
  }

  @Test
  void relayStateImportingARelayIsRejected() {
    JavaClasses classes =
        new ClassFileImporter()
            .importClasses(EngineThatImportsThePollingRelay.class, PollingRelay.class);
    assertThatThrownBy(() -> DependencyRules.ENGINE_DEPENDS_ON_CORE_ONLY.check(classes))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("EngineThatImportsThePollingRelay")
        .hasMessageContaining("relay.polling.PollingRelay");
  }

  @Test
  void relayStateOnCoreAloneIsAccepted() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(new ImportOption.DoNotIncludeTests())
            .importPackagesOf(OutboxAdmin.class);
    DependencyRules.ENGINE_DEPENDS_ON_CORE_ONLY.check(classes);
  }

  @Test
  void theTransactionalOutboxImportingARelayIsRejected() {
    JavaClasses classes =
        new ClassFileImporter()
            .importClasses(TransactionalOutboxThatImportsARelay.class, PollingRelay.class);
    assertThatThrownBy(
            () ->
                DependencyRules.ROCKETMQ_TRANSACTIONAL_USES_WRITER_AND_ROCKETMQ_PUBLISHER_ONLY
                    .check(classes))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("TransactionalOutboxThatImportsARelay")
        .hasMessageContaining("relay.polling.PollingRelay");
  }

  @Test
  void theTransactionalOutboxOnWriterAndRocketMqPublisherIsAccepted() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(new ImportOption.DoNotIncludeTests())
            .importPackagesOf(RocketMqTransactionalOutbox.class);
    DependencyRules.ROCKETMQ_TRANSACTIONAL_USES_WRITER_AND_ROCKETMQ_PUBLISHER_ONLY.check(classes);
  }

  @Test
  void anotherModulesInternalPackageIsRejected() {
    JavaClasses classes =
        new ClassFileImporter().importClasses(BenchmarkUsingServerInternals.class, Ports.class);
    assertThatThrownBy(() -> DependencyRules.INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE.check(classes))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("BenchmarkUsingServerInternals")
        .hasMessageContaining("servers.internal.Ports");
  }

  @Test
  void theWriterImportingDedupAndACycleAreRejected() {
    JavaClasses classes =
        new ClassFileImporter()
            .importClasses(WriterThatImportsDedup.class, DedupThatImportsTheWriter.class);
    assertThatThrownBy(() -> DependencyRules.WRITER_AND_DEDUP_IGNORE_EACH_OTHER.check(classes))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("WriterThatImportsDedup")
        .hasMessageContaining("DedupThatImportsTheWriter");
    assertThatThrownBy(() -> DependencyRules.NO_PACKAGE_CYCLES.check(classes))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Cycle detected");
  }

  @Test
  void aModuleWithoutClassesIsReported() {
    JavaClasses classes = new ClassFileImporter().importPackagesOf(PollingRelay.class);
    assertThat(Modules.missingFrom(classes))
        .contains("outbox-relay-cdc", "outbox-relay-engine", "publishers/rocketmq")
        .doesNotContain("outbox-relay-polling");
  }
}
