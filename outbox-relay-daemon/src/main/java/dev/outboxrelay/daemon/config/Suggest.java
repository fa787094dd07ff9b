package dev.outboxrelay.daemon.config;

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
      int d = distance(given, k);
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

  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(substitute, Math.min(prev[j], cur[j - 1]) + 1);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
