package dev.outboxrelay.it;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.outboxrelay.publisher.archfixture.FakeKafkaPublisher;
import dev.outboxrelay.relay.archfixture.RelayThatImportsAPublisher;
import org.junit.jupiter.api.Test;

/** The rules can fail: a relay that imports a publisher implementation is caught. */
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
}
