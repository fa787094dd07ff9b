package dev.outboxrelay.daemon.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.Secrets;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * The YAML text of a config file: its tree, and where each key stands, so that an error names the
 * file, line and column. Parse errors carry the parser's reason and position (SnakeYAML's problem
 * mark, which points at the offending character, e.g. a tab) but never the source line, which may
 * hold a secret.
 */
final class YamlSource {
  private static final ObjectMapper MAPPER =
      new ObjectMapper(new YAMLFactory().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION))
          .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

  private final String name;
  private final JsonNode tree;
  private final Map<String, JsonLocation> keys;

  private YamlSource(String name, JsonNode tree, Map<String, JsonLocation> keys) {
    this.name = name;
    this.tree = tree;
    this.keys = keys;
  }

  /** Parses the text; {@code name} (the file) is used in error messages. */
  static YamlSource read(String yaml, String name) {
    try {
      JsonNode tree = MAPPER.readTree(yaml);
      return new YamlSource(name, tree, locations(yaml));
    } catch (JsonProcessingException e) {
      throw parseError(name, e);
    } catch (IOException e) {
      throw new OutboxConfigException(name, "cannot be read: " + e.getMessage());
    }
  }

  JsonNode tree() {
    return tree;
  }

  /**
   * The error with where its key stands: the file position of the key (or of its nearest parent in
   * the file), or the environment variable that set it.
   */
  OutboxConfigException locate(OutboxConfigException e, Map<String, String> env) {
    String problem = e.getMessage().substring(Math.min(e.getMessage().length(), e.key().length()));
    String envName = ConfigLoader.ENV_PREFIX + e.key().replaceAll("[.\\-\\[\\]]+", "_");
    envName = envName.replaceAll("_$", "").toUpperCase(java.util.Locale.ROOT);
    if (env.containsKey(envName)) {
      return new OutboxConfigException(e.key(), problem.trim() + " (set by " + envName + ")");
    }
    for (String k = e.key(); !k.isEmpty(); k = parent(k)) {
      JsonLocation at = keys.get(k);
      if (at != null) {
        return new OutboxConfigException(e.key(), problem.trim() + " (" + where(at) + ")");
      }
    }
    return e;
  }

  private String where(JsonLocation at) {
    return name + ", line " + at.getLineNr() + ", column " + at.getColumnNr();
  }

  private static String parent(String key) {
    int cut = Math.max(key.lastIndexOf('.'), key.lastIndexOf('['));
    return cut < 0 ? "" : key.substring(0, cut);
  }

  private static OutboxConfigException parseError(String name, JsonProcessingException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof MarkedYAMLException m && m.getProblemMark() != null) {
        String context = m.getContext() == null ? "" : " (" + m.getContext() + ")";
        return new OutboxConfigException(
            name,
            "is not valid YAML at line "
                + (m.getProblemMark().getLine() + 1)
                + ", column "
                + (m.getProblemMark().getColumn() + 1)
                + ": "
                + Secrets.maskText(m.getProblem())
                + context);
      }
    }
    JsonLocation at = e.getLocation();
    String position =
        at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    return new OutboxConfigException(
        name, "is not valid YAML" + position + ": " + Secrets.maskText(e.getOriginalMessage()));
  }

  /** Key path ({@code relays[0].database.url}) to the position of the key in the text. */
  private static Map<String, JsonLocation> locations(String yaml) throws IOException {
    Map<String, JsonLocation> out = new HashMap<>();
    try (JsonParser p = MAPPER.getFactory().createParser(yaml)) {
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t == JsonToken.FIELD_NAME || t.isStructStart() || p.getParsingContext().inArray()) {
          String key = path(p.getParsingContext().pathAsPointer().toString());
          out.putIfAbsent(key, p.currentTokenLocation());
        }
      }
    }
    return out;
  }

  private static String path(String pointer) {
    StringBuilder b = new StringBuilder();
    for (String segment : pointer.split("/")) {
      if (segment.isEmpty()) {
        continue;
      }
      String s = segment.replace("~1", "/").replace("~0", "~");
      if (s.chars().allMatch(Character::isDigit)) {
        b.append('[').append(s).append(']');
      } else {
        b.append(b.length() == 0 ? "" : ".").append(s);
      }
    }
    return b.toString();
  }
}
