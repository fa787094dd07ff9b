package dev.outboxrelay.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import dev.outboxrelay.core.Relay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;

/**
 * Checks every module's production classes (each module is a dependency of this one) against {@link
 * DependencyRules}: what each module may depend on, siblings apart, {@code internal} packages
 * private to their module, no package cycles, the test kit and the server launchers out of
 * production code. {@link #everyModuleIsAnalysed} fails when a module of {@link Modules} has no
 * class here, or when the source tree has a module that list lacks.
 */
@AnalyzeClasses(packages = "dev.outboxrelay", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
  @ArchTest static final ArchRule core = DependencyRules.CORE_DEPENDS_ON_NOTHING_OF_OURS;

  @ArchTest
  static final ArchRule relays = DependencyRules.RELAYS_NEVER_DEPEND_ON_PUBLISHER_IMPLEMENTATIONS;

  @ArchTest static final ArchRule engine = DependencyRules.ENGINE_DEPENDS_ON_CORE_ONLY;

  @ArchTest static final ArchRule publishers = DependencyRules.PUBLISHERS_DEPEND_ON_CORE_ONLY;

  @ArchTest
  static final ArchRule writerAndDedup = DependencyRules.WRITER_AND_DEDUP_DEPEND_ON_CORE_ONLY;

  @ArchTest
  static final ArchRule rocketMqTransactional =
      DependencyRules.ROCKETMQ_TRANSACTIONAL_USES_WRITER_AND_ROCKETMQ_PUBLISHER_ONLY;

  @ArchTest static final ArchRule micrometer = DependencyRules.MICROMETER_DEPENDS_ON_CORE_ONLY;

  @ArchTest
  static final ArchRule wiring = DependencyRules.ONLY_DAEMON_AND_STARTER_WIRE_PIECES_TOGETHER;

  @ArchTest static final ArchRule testing = DependencyRules.NO_PRODUCTION_CODE_DEPENDS_ON_TESTING;

  @ArchTest static final ArchRule servers = DependencyRules.ONLY_HARNESSES_START_SERVERS;

  @ArchTest static final ArchRule internal = DependencyRules.INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE;

  @ArchTest static final ArchRule relaySiblings = DependencyRules.RELAYS_IGNORE_EACH_OTHER;

  @ArchTest static final ArchRule publisherSiblings = DependencyRules.PUBLISHERS_IGNORE_EACH_OTHER;

  @ArchTest
  static final ArchRule writerAndDedupApart = DependencyRules.WRITER_AND_DEDUP_IGNORE_EACH_OTHER;

  @ArchTest static final ArchRule cycles = DependencyRules.NO_PACKAGE_CYCLES;

  /** Each relay is a core {@link Relay}: the daemon, the starter and the tests hold no stand-in. */
  @ArchTest
  static final ArchRule everyRelayIsARelay =
      classes()
          .that()
          .resideInAnyPackage("dev.outboxrelay.relay.polling", "dev.outboxrelay.relay.cdc")
          .and()
          .haveSimpleNameEndingWith("Relay")
          .and()
          .arePublic()
          .should()
          .implement(Relay.class);

  /**
   * Each module of {@link Modules} has classes here (else every rule about it passes vacuously),
   * and each module directory of the source tree is in that list, with its root package.
   */
  @ArchTest
  static void everyModuleIsAnalysed(JavaClasses classes) throws IOException {
    assertThat(Modules.missingFrom(classes))
        .as("modules without a class here (add them to integration-tests' pom)")
        .isEmpty();
    Path root = Paths.get(System.getProperty("outbox.project.root", ".."));
    List<String> inTree;
    String sources = "/src/main/java/dev/outboxrelay";
    try (Stream<Path> dirs = Files.walk(root, 8)) {
      inTree =
          dirs.map(d -> root.relativize(d).toString().replace('\\', '/'))
              .filter(d -> d.endsWith(sources) && !d.contains("/target/"))
              .map(d -> d.substring(0, d.length() - sources.length()))
              .toList();
    }
    assertThat(inTree)
        .as("modules in the source tree")
        .containsExactlyInAnyOrderElementsOf(Modules.ALL.stream().map(Modules::directory).toList());
    for (Modules m : Modules.ALL) {
      assertThat(root.resolve(m.directory()).resolve("src/main/java"))
          .as("root package of %s", m.directory())
          .isDirectoryRecursivelyContaining(
              "glob:**/" + m.rootPackage().replace('.', '/') + "/*.java");
    }
  }
}
