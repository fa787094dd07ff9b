package dev.outboxrelay.it;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Optional;
import java.util.Set;

/**
 * A class may use an {@code internal} package of its own module only. The one exception is
 * outbox-core's {@code core.internal}: row mapping, headers JSON and batch outcomes shared by the
 * library's own writer, relays and daemon (Jdbi's other modules use {@code jdbi.v3.core.internal}
 * the same way); no other module, and nothing outside that list, may use it.
 */
final class InternalPackages extends ArchCondition<JavaClass> {
  private static final String CORE_INTERNAL = "dev.outboxrelay.core.internal";
  private static final Set<String> CORE_INTERNAL_USERS =
      Set.of(
          "dev.outboxrelay.writer",
          "dev.outboxrelay.relay.polling",
          "dev.outboxrelay.relay.cdc",
          "dev.outboxrelay.daemon");

  InternalPackages() {
    super("use only their own module's internal packages");
  }

  @Override
  public void check(JavaClass origin, ConditionEvents events) {
    Optional<Modules> own = Modules.of(origin);
    for (Dependency d : origin.getDirectDependenciesFromSelf()) {
      String target = d.getTargetClass().getPackageName();
      if (!isInternal(target) || own.map(m -> m.holds(target)).orElse(false)) {
        continue;
      }
      if (target.startsWith(CORE_INTERNAL)
          && own.map(m -> CORE_INTERNAL_USERS.contains(m.rootPackage())).orElse(false)) {
        continue;
      }
      events.add(SimpleConditionEvent.violated(d, d.getDescription()));
    }
  }

  private static boolean isInternal(String packageName) {
    return packageName.startsWith("dev.outboxrelay.")
        && (packageName.endsWith(".internal") || packageName.contains(".internal."));
  }
}
