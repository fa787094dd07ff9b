package dev.outboxrelay.daemon;

import java.util.List;
import java.util.Map;

/**
 * One relay's readiness as {@code /health/ready} reports it: UP or DOWN, what it is doing ({@code
 * mode}, {@code buckets} or CDC {@code role} and {@code owner}), and when DOWN the reasons.
 */
record Readiness(boolean up, Map<String, Object> fields, List<String> reasons) {

  String json() {
    StringBuilder b = new StringBuilder("{\"status\":\"").append(up ? "UP" : "DOWN").append('"');
    fields.forEach(
        (k, v) -> {
          b.append(",\"").append(k).append("\":");
          b.append(v instanceof Number ? v.toString() : quote(String.valueOf(v)));
        });
    if (!reasons.isEmpty()) {
      b.append(",\"reasons\":[");
      for (int i = 0; i < reasons.size(); i++) {
        b.append(i == 0 ? "" : ",").append(quote(reasons.get(i)));
      }
      b.append(']');
    }
    return b.append('}').toString();
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }
}
