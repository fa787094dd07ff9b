package dev.outboxrelay.daemon.config;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.outboxrelay.core.OutboxConfigException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Writes {@code OUTBOX_*} variables into the parsed tree before it is bound: each names a path of
 * the file, segments upper-cased, {@code .} and {@code -} as {@code _}, list positions as numbers.
 */
final class EnvOverrides {
  private EnvOverrides() {}

  static void apply(ObjectNode root, Map<String, String> env) {
    new TreeMap<>(env)
        .forEach(
            (name, value) -> {
              if (name.startsWith(ConfigLoader.ENV_PREFIX)
                  && name.length() > ConfigLoader.ENV_PREFIX.length()
                  && !ConfigLoader.RESERVED_ENV.contains(name)) {
                String path = name.substring(ConfigLoader.ENV_PREFIX.length());
                set(root, ConfigKeys.ROOT, tokens(path), value, name);
              }
            });
  }

  private static void set(
      ObjectNode node, Set<String> known, List<String> tokens, String value, String envName) {
    Set<String> candidates = new HashSet<>(known);
    node.fieldNames().forEachRemaining(candidates::add);
    String best = longestMatch(candidates, tokens);
    if (best == null) {
      throw unknown(candidates, tokens, envName);
    }
    List<String> rest = tokens.subList(tokens(best).size(), tokens.size());
    if (rest.isEmpty()) {
      node.set(best, TextNode.valueOf(value));
    } else if (best.equals("relays")) {
      ObjectNode relay = relay(node, rest.get(0), envName);
      if (rest.size() == 1) {
        throw new OutboxConfigException(envName, "must name a key of the relay");
      }
      set(relay, ConfigKeys.RELAY, rest.subList(1, rest.size()), value, envName);
    } else {
      ObjectNode child =
          node.get(best) instanceof ObjectNode existing ? existing : node.putObject(best);
      if (ConfigKeys.FREE_FORM.contains(best)) {
        child.set(freeFormKey(child, rest), TextNode.valueOf(value));
      } else {
        set(child, ConfigKeys.under(best), rest, value, envName);
      }
    }
  }

  /** The longest key whose env spelling matches a prefix of the remaining tokens. */
  private static String longestMatch(Set<String> candidates, List<String> tokens) {
    String best = null;
    for (String key : candidates) {
      List<String> keyTokens = tokens(key);
      if (keyTokens.size() <= tokens.size()
          && tokens.subList(0, keyTokens.size()).equals(keyTokens)
          && (best == null || keyTokens.size() > tokens(best).size())) {
        best = key;
      }
    }
    return best;
  }

  private static ObjectNode relay(ObjectNode node, String position, String envName) {
    ArrayNode list =
        node.get("relays") instanceof ArrayNode existing ? existing : node.putArray("relays");
    int index;
    try {
      index = Integer.parseInt(position);
    } catch (NumberFormatException e) {
      throw new OutboxConfigException(envName, "must give the relay's position after RELAYS_");
    }
    while (list.size() <= index) {
      list.addObject();
    }
    if (!list.get(index).isObject()) {
      throw new OutboxConfigException(envName, "must name a key of the relay");
    }
    return (ObjectNode) list.get(index);
  }

  /** A key of the file spelled the same way, else the lower-case tokens joined with dots. */
  private static String freeFormKey(ObjectNode child, List<String> rest) {
    String joined = String.join("_", rest);
    String existing = null;
    for (Iterator<String> it = child.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (String.join("_", tokens(key)).equals(joined)) {
        existing = key;
      }
    }
    return existing != null ? existing : String.join(".", rest);
  }

  private static OutboxConfigException unknown(
      Set<String> candidates, List<String> tokens, String envName) {
    // Never the value: an unknown variable may be a misspelled secret.
    String rest = String.join("_", tokens);
    String named = envName.substring(0, envName.length() - rest.length());
    Map<String, String> spelled = new TreeMap<>();
    candidates.forEach(k -> spelled.put(String.join("_", tokens(k)), k));
    String hint =
        Suggest.closest(rest, spelled.keySet())
            .map(k -> "; did you mean " + (named + k).toUpperCase(Locale.ROOT) + "?")
            .orElse("");
    return new OutboxConfigException(
        envName,
        "does not name a config key" + hint + " (known here: " + new TreeSet<>(candidates) + ")");
  }

  /** {@code pool-size} and {@code POOL_SIZE} → {@code [pool, size]}. */
  private static List<String> tokens(String key) {
    return List.of(key.toLowerCase(Locale.ROOT).replace('-', '_').replace('.', '_').split("_"));
  }
}
