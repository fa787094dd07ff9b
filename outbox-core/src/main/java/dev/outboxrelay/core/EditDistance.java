package dev.outboxrelay.core;

/**
 * Levenshtein distance, for "did you mean" hints and for catching misspelled secret keys ({@link
 * Secrets}). Stateless, thread-safe.
 */
public final class EditDistance {
  private EditDistance() {}

  /** The number of single-character insertions, deletions and substitutions from a to b. */
  public static int between(String a, String b) {
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
