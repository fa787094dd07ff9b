package dev.outboxrelay.it;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;

/** The one direction of dependencies in DESIGN.md, as ArchUnit rules over package names. */
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
  static final String DEMO = "dev.outboxrelay.daemon.demo..";
  static final String BENCHMARKS = "dev.outboxrelay.benchmarks..";

  private DependencyRules() {}

  // Rules about modules that are not built yet allow an empty 'that()'; ArchitectureTest's
  // everyModuleIsAnalysed makes sure each existing module's classes are imported.

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
          .resideInAnyPackage(PUBLISHERS, DEDUP, DAEMON, SPRING)
          .because("relays talk to brokers only through the Publisher SPI in outbox-core")
          .allowEmptyShould(true);

  static final ArchRule PUBLISHERS_DEPEND_ON_CORE_ONLY =
      noClasses()
          .that()
          .resideInAPackage(PUBLISHERS)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(WRITER, RELAYS, DEDUP, DAEMON, SPRING)
          .because("publishers depend on outbox-core only")
          .allowEmptyShould(true);

  static final ArchRule WRITER_AND_DEDUP_DEPEND_ON_CORE_ONLY =
      noClasses()
          .that()
          .resideInAnyPackage(WRITER, DEDUP)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(RELAYS, PUBLISHERS, DAEMON, SPRING)
          .because("the writer and consumer-dedup depend on outbox-core only")
          .allowEmptyShould(true);

  static final ArchRule MICROMETER_DEPENDS_ON_CORE_ONLY =
      noClasses()
          .that()
          .resideInAPackage(MICROMETER)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(WRITER, RELAYS, PUBLISHERS, DEDUP, DAEMON, SPRING)
          .because("outbox-micrometer binds the RelayListener SPI of outbox-core, for any relay")
          .allowEmptyShould(true);

  static final ArchRule ONLY_DAEMON_AND_STARTER_WIRE_PIECES_TOGETHER =
      noClasses()
          .that()
          .resideOutsideOfPackages(DAEMON, SPRING)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(DAEMON, SPRING)
          .because("the daemon and the starter are the only places that wire concrete pieces");

  static final ArchRule NO_PRODUCTION_CODE_DEPENDS_ON_TESTING =
      noClasses()
          .that()
          .resideOutsideOfPackages(TESTING, DEMO, BENCHMARKS)
          .should()
          .dependOnClassesThat()
          .resideInAPackage(TESTING)
          .because(
              "outbox-testing is for tests only (and for the two harnesses that start private"
                  + " servers on purpose: the daemon's demo command and the benchmarks)");
}
