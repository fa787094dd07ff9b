package dev.outboxrelay.it;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.List;
import java.util.Optional;

/**
 * The modules with production code, each with its one root package: the list ArchitectureTest
 * checks against the classes it imported (each module present) and against the source tree (no
 * module left out).
 */
record Modules(String directory, String rootPackage) {
  static final List<Modules> ALL =
      List.of(
          new Modules("outbox-core", "dev.outboxrelay.core"),
          new Modules("outbox-writer", "dev.outboxrelay.writer"),
          new Modules("outbox-relay-engine", "dev.outboxrelay.relay.engine"),
          new Modules("outbox-relay-polling", "dev.outboxrelay.relay.polling"),
          new Modules("outbox-relay-cdc", "dev.outboxrelay.relay.cdc"),
          new Modules("outbox-micrometer", "dev.outboxrelay.micrometer"),
          new Modules("publishers/kafka", "dev.outboxrelay.publisher.kafka"),
          new Modules("publishers/rocketmq", "dev.outboxrelay.publisher.rocketmq"),
          new Modules("publishers/rocketmq-transactional", "dev.outboxrelay.rocketmqtx"),
          new Modules("consumer-dedup", "dev.outboxrelay.dedup"),
          new Modules("outbox-servers", "dev.outboxrelay.servers"),
          new Modules("outbox-testing", "dev.outboxrelay.testing"),
          new Modules("outbox-relay-daemon", "dev.outboxrelay.daemon"),
          new Modules("outbox-demo", "dev.outboxrelay.demo"),
          new Modules("outbox-spring-boot-starter", "dev.outboxrelay.spring"),
          new Modules("benchmarks", "dev.outboxrelay.benchmarks"));

  /** The module whose root package holds {@code c}, if any. */
  static Optional<Modules> of(JavaClass c) {
    return ALL.stream().filter(m -> m.holds(c.getPackageName())).findFirst();
  }

  boolean holds(String packageName) {
    return packageName.equals(rootPackage) || packageName.startsWith(rootPackage + ".");
  }

  /** Names of the listed modules none of whose classes are among {@code classes}. */
  static List<String> missingFrom(JavaClasses classes) {
    return ALL.stream()
        .filter(m -> classes.stream().noneMatch(c -> m.holds(c.getPackageName())))
        .map(Modules::directory)
        .toList();
  }
}
