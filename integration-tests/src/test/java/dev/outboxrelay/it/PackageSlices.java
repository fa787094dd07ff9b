package dev.outboxrelay.it;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * One slice per package of ours, with a package's {@code internal} sub-packages in its slice: the
 * public types of a package and their implementation in {@code internal} use each other by design
 * (the API calls the implementation, which takes and returns API types). Any other cycle, between
 * modules or between packages of one module, is a cycle between slices.
 */
final class PackageSlices implements SliceAssignment {
  private static final String ROOT = "dev.outboxrelay.";

  @Override
  public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
    String p = javaClass.getPackageName();
    if (!p.startsWith(ROOT)) {
      return SliceIdentifier.ignore();
    }
    int internal = p.indexOf(".internal");
    boolean isInternal =
        internal >= 0
            && (p.length() == internal + ".internal".length()
                || p.charAt(internal + ".internal".length()) == '.');
    return SliceIdentifier.of(isInternal ? p.substring(0, internal) : p);
  }

  @Override
  public String getDescription() {
    return "packages of dev.outboxrelay, each with its internal sub-packages";
  }
}
