package dev.outboxrelay.it;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;

/**
 * The direction of dependencies between our modules, as ArchUnit rules over package names (one root
 * package per module, {@link Modules}): outbox-core at the bottom; the writer, the relays, the
 * publishers, consumer-dedup and outbox-micrometer on core only and never on a sibling; the
 * RocketMQ transactional outbox (outbox-rocketmq-transactional) on core, the writer and the
 * RocketMQ publisher only, and none of those on it; the relay engine both relays share
 * (outbox-relay-engine) on core only, so it belongs to neither; the daemon and the starter the only
 * places that wire concrete pieces together; the test kit and the server launchers out of
 * production code; {@code internal} packages private to their module; no cycles between packages (a
 * package and its own {@code internal} sub-package count as one, {@link PackageSlices}).
 */
final class DependencyRules {
  static final String ROOT = "dev.outboxrelay..";
  static final String CORE = "dev.outboxrelay.core..";
  static final String WRITER = "dev.outboxrelay.writer..";
  static final String RELAYS = "dev.outboxrelay.relay..";
  static final String PUBLISHERS = "dev.outboxrelay.publisher..";
  static final String DEDUP = "dev.outboxrelay.dedup..";
  static final String MICROMETER = "dev.outboxrelay.micrometer..";
  static final String DAEMON = "dev.outboxrelay.daemon..";
  static final String SPRING = "dev.outboxrelay.spring..";
  static final String TESTING = "dev.outboxrelay.testing..";
  static final String SERVERS = "dev.outboxrelay.servers..";
  static final String DEMO = "dev.outboxrelay.demo..";
  static final String POLLING = "dev.outboxrelay.relay.polling..";
  static final String CDC = "dev.outboxrelay.relay.cdc..";
  static final String ENGINE = "dev.outboxrelay.relay.engine..";
  static final String KAFKA = "dev.outboxrelay.publisher.kafka..";
  static final String ROCKETMQ = "dev.outboxrelay.publisher.rocketmq..";
  static final String ROCKETMQ_TX = "dev.outboxrelay.rocketmqtx..";
  static final String BENCHMARKS = "dev.outboxrelay.benchmarks..";

  private DependencyRules() {}

  // Rules allow an empty 'that()' so that DependencyRulesSelfTest can check one rule on a few
  // fixture classes; ArchitectureTest's everyModuleIsAnalysed makes sure each module's classes are
  // imported there.

  static final ArchRule CORE_DEPENDS_ON_NOTHING_OF_OURS =
      noClasses()
          .that()
          .resideInAPackage(CORE)
          .should()
          .dependOnClassesThat(resideInAPackage(ROOT).and(resideOutsideOfPackage(CORE)))
          .because("outbox-core depends on nothing of ours");

  static final ArchRule RELAYS_NEVER_DEPEND_ON_PUBLISHER_IMPLEMENTATIONS =
      noClasses()
          .that()
          .resideInAPackage(RELAYS)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(PUBLISHERS, ROCKETMQ_TX, DEDUP, DAEMON, SPRING)
          .because("relays talk to brokers only through the Publisher SPI in outbox-core")
          .allowEmptyShould(true);

  static final ArchRule ENGINE_DEPENDS_ON_CORE_ONLY =
      noClasses()
          .that()
          .resideInAPackage(ENGINE)
          .should()
          .dependOnClassesThat(resideInAPackage(ROOT).and(resideOutsideOfPackages(CORE, ENGINE)))
          .because(
              "the relay engine both relays share (the per-key delivery machine, parked keys,"
                  + " retention, the operator's actions) depends on outbox-core only, so it belongs to neither"
                  + " relay")
          .allowEmptyShould(true);

  static final ArchRule PUBLISHERS_DEPEND_ON_CORE_ONLY =
      noClasses()
          .that()
          .resideInAPackage(PUBLISHERS)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(WRITER, RELAYS, ROCKETMQ_TX, DEDUP, DAEMON, SPRING)
          .because("publishers depend on outbox-core only")
          .allowEmptyShould(true);

  static final ArchRule WRITER_AND_DEDUP_DEPEND_ON_CORE_ONLY =
      noClasses()
          .that()
          .resideInAnyPackage(WRITER, DEDUP)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(RELAYS, PUBLISHERS, ROCKETMQ_TX, DAEMON, SPRING)
          .because("the writer and consumer-dedup depend on outbox-core only")
          .allowEmptyShould(true);

  static final ArchRule MICROMETER_DEPENDS_ON_CORE_ONLY =
      noClasses()
          .that()
          .resideInAPackage(MICROMETER)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(WRITER, RELAYS, PUBLISHERS, ROCKETMQ_TX, DEDUP, DAEMON, SPRING)
          .because("outbox-micrometer binds the RelayListener SPI of outbox-core, for any relay")
          .allowEmptyShould(true);

  static final ArchRule ROCKETMQ_TRANSACTIONAL_USES_WRITER_AND_ROCKETMQ_PUBLISHER_ONLY =
      noClasses()
          .that()
          .resideInAPackage(ROCKETMQ_TX)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(RELAYS, KAFKA, DEDUP, MICROMETER, DAEMON, SPRING)
          .because(
              "the RocketMQ transactional outbox is the writer plus the RocketMQ publisher's"
                  + " message contract: it depends on outbox-core, outbox-writer and"
                  + " outbox-publisher-rocketmq only, and nothing but the daemon and the starter"
                  + " depends on it")
          .allowEmptyShould(true);

  static final ArchRule ONLY_DAEMON_AND_STARTER_WIRE_PIECES_TOGETHER =
      noClasses()
          .that()
          .resideOutsideOfPackages(DAEMON, SPRING, DEMO, BENCHMARKS)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(DAEMON, SPRING)
          .because(
              "the daemon and the starter are the only places that wire concrete pieces (the demo"
                  + " runs the daemon's command line; the benchmarks measure the starter's"
                  + " SpringOutbox)")
          .allowEmptyShould(true);

  static final ArchRule NO_PRODUCTION_CODE_DEPENDS_ON_TESTING =
      noClasses()
          .that()
          .resideOutsideOfPackage(TESTING)
          .should()
          .dependOnClassesThat()
          .resideInAPackage(TESTING)
          .because("outbox-testing (JUnit extensions, contracts, fixtures) is for tests only")
          .allowEmptyShould(true);

  static final ArchRule ONLY_HARNESSES_START_SERVERS =
      noClasses()
          .that()
          .resideOutsideOfPackages(SERVERS, TESTING, DEMO, BENCHMARKS)
          .should()
          .dependOnClassesThat()
          .resideInAPackage(SERVERS)
          .because(
              "private servers are started by the test kit and the two harnesses that do so on"
                  + " purpose (the demo and the benchmarks), never by the library or the daemon")
          .allowEmptyShould(true);

  static final ArchRule INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE =
      classes()
          .that()
          .resideInAPackage(ROOT)
          .should(new InternalPackages())
          .because("packages named internal are not API, not even for our other modules")
          .allowEmptyShould(true);

  static final ArchRule RELAYS_IGNORE_EACH_OTHER = apart(POLLING, CDC, "the two relays");

  static final ArchRule PUBLISHERS_IGNORE_EACH_OTHER = apart(KAFKA, ROCKETMQ, "the two publishers");

  static final ArchRule WRITER_AND_DEDUP_IGNORE_EACH_OTHER =
      apart(WRITER, DEDUP, "the writer and consumer-dedup");

  static final ArchRule NO_PACKAGE_CYCLES =
      slices()
          .assignedFrom(new PackageSlices())
          .should()
          .beFreeOfCycles()
          .because("a cycle between packages hides which one is the lower layer")
          .allowEmptyShould(true);

  /** Neither package depends on the other. */
  static ArchRule apart(String one, String other, String what) {
    String because = what + " are siblings: each depends on outbox-core, not on the other";
    return CompositeArchRule.of(oneWay(one, other, because)).and(oneWay(other, one, because));
  }

  private static ArchRule oneWay(String from, String to, String because) {
    return noClasses()
        .that()
        .resideInAPackage(from)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(to)
        .because(because)
        .allowEmptyShould(true);
  }
}
