package dev.outboxrelay.daemon.config;

import dev.outboxrelay.core.EditDistance;
import java.util.Collection;
import java.util.Optional;

/** "Did you mean …?" for unknown keys: the known key nearest by edit distance, if close. */
final class Suggest {
  private Suggest() {}

  /** The known word nearest to {@code given}, within a third of its length (at least 2 edits). */
  static Optional<String> closest(String given, Collection<String> known) {
    String best = null;
    int bestDistance = Math.max(2, given.length() / 3) + 1;
    for (String k : known) {
      int d = EditDistance.between(given, k);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return Optional.ofNullable(best);
  }

  /** The " did you mean X?" clause, or nothing. */
  static String didYouMean(String given, Collection<String> known) {
    return closest(given, known).map(k -> "; did you mean " + k + "?").orElse("");
  }
}
