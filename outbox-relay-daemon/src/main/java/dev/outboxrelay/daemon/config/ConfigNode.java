package dev.outboxrelay.daemon.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.Setting;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/** A mapping of the config tree with its path ({@code relays[0].database}) for error messages. */
record ConfigNode(String path, ObjectNode node) {

  static ConfigNode root(ObjectNode node) {
    return new ConfigNode("", node);
  }

  String key(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  /** Refuses a key not in {@code allowed}, suggesting the nearest. */
  void onlyKeys(Collection<String> allowed) {
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!allowed.contains(k)) {
        // Never the value: an unknown key may be a misspelled secret ('pasword').
        throw new OutboxConfigException(
            key(k),
            "is not a known key"
                + Suggest.didYouMean(k, allowed)
                + " (known: "
                + new TreeSet<>(allowed)
                + ")");
      }
    }
  }

  ConfigNode object(String name) {
    JsonNode v = node.get(name);
    if (v == null || v.isNull()) {
      return new ConfigNode(key(name), JsonNodeFactory.instance.objectNode());
    }
    if (!v.isObject()) {
      throw new OutboxConfigException(key(name), scalar(v), "must be a mapping");
    }
    return new ConfigNode(key(name), (ObjectNode) v);
  }

  /** The value of a declared setting: parsed and checked by it, or its default when absent. */
  <T> T value(Setting<T> setting) {
    String v = text(setting.key());
    return v == null ? setting.defaultValue() : setting.parse(key(setting.key()), v);
  }

  /** The value of a setting that has no default. */
  String required(Setting<String> setting) {
    String v = text(setting.key());
    if (v == null || v.isBlank()) {
      throw new OutboxConfigException(key(setting.key()), v, "is required");
    }
    return setting.parse(key(setting.key()), v.trim());
  }

  String text(String name) {
    JsonNode v = node.get(name);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isValueNode()) {
      throw new OutboxConfigException(key(name), v.getNodeType(), "must be a single value");
    }
    return v.asText();
  }

  Map<String, String> stringMap(String name) {
    ConfigNode m = object(name);
    Map<String, String> out = new LinkedHashMap<>();
    m.node
        .fields()
        .forEachRemaining(
            e -> {
              if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw new OutboxConfigException(
                    m.key(e.getKey()), e.getValue().getNodeType(), "must be a single value");
              }
              out.put(e.getKey(), e.getValue().asText());
            });
    return out;
  }

  private static Object scalar(JsonNode v) {
    return v == null ? null : v.isValueNode() ? v.asText() : v.getNodeType();
  }
}
