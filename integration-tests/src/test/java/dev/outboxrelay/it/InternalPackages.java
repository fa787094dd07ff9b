package dev.outboxrelay.it;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Optional;

/**
 * A class may use an {@code internal} package of its own module only, without exception: what
 * another module needs is public API of its owner (outbox-core's row mapping, headers JSON and
 * batch outcomes are {@code core.rows} and {@code core}, documented as such).
 */
final class InternalPackages extends ArchCondition<JavaClass> {
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
      events.add(SimpleConditionEvent.violated(d, d.getDescription()));
    }
  }

  private static boolean isInternal(String packageName) {
    return packageName.startsWith("dev.outboxrelay.")
        && (packageName.endsWith(".internal") || packageName.contains(".internal."));
  }
}
