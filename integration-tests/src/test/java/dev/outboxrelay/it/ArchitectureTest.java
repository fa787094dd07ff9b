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
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Checks every module's production classes (they are all dependencies of this module) against the
 * dependency direction of DESIGN.md. A new module must be added to this module's pom.
 */
@AnalyzeClasses(packages = "dev.outboxrelay", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
  @ArchTest static final ArchRule core = DependencyRules.CORE_DEPENDS_ON_NOTHING_OF_OURS;

  @ArchTest
  static final ArchRule relays = DependencyRules.RELAYS_NEVER_DEPEND_ON_PUBLISHER_IMPLEMENTATIONS;

  @ArchTest static final ArchRule publishers = DependencyRules.PUBLISHERS_DEPEND_ON_CORE_ONLY;

  @ArchTest
  static final ArchRule writerAndDedup = DependencyRules.WRITER_AND_DEDUP_DEPEND_ON_CORE_ONLY;

  @ArchTest static final ArchRule micrometer = DependencyRules.MICROMETER_DEPENDS_ON_CORE_ONLY;

  @ArchTest
  static final ArchRule wiring = DependencyRules.ONLY_DAEMON_AND_STARTER_WIRE_PIECES_TOGETHER;

  @ArchTest static final ArchRule testing = DependencyRules.NO_PRODUCTION_CODE_DEPENDS_ON_TESTING;

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

  /** Each module's root package under src/main/java must be among the analysed classes. */
  @ArchTest
  static void everyModuleIsAnalysed(JavaClasses classes) throws IOException {
    Path root = Paths.get(System.getProperty("outbox.project.root", ".."));
    Set<String> packages;
    try (Stream<Path> dirs = Files.walk(root, 8)) {
      packages =
          dirs.filter(d -> d.endsWith(Paths.get("src", "main", "java", "dev", "outboxrelay")))
              .filter(d -> !d.toString().contains("/target/"))
              .flatMap(ArchitectureTest::children)
              .collect(Collectors.toSet());
    }
    assertThat(packages).contains("core", "writer", "testing");
    for (String p : packages) {
      assertThat(classes.containPackage("dev.outboxrelay." + p))
          .as("classes of dev.outboxrelay.%s are analysed (add its module to integration-tests)", p)
          .isTrue();
    }
  }

  private static Stream<String> children(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isDirectory).map(d -> d.getFileName().toString()).toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
