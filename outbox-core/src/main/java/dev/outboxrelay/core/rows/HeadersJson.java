package dev.outboxrelay.core.rows;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.outboxrelay.core.OutboxException;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Encodes user headers as a flat JSON object of strings for the {@code headers} column: the writer
 * encodes, the relays decode. Stateless, thread-safe.
 */
public final class HeadersJson {
  private static final JsonFactory JSON = new JsonFactory();

  private HeadersJson() {}

  /** JSON text, or {@code null} for no headers (the column stays NULL). */
  public static String encode(Map<String, String> headers) {
    if (headers.isEmpty()) {
      return null;
    }
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      for (Map.Entry<String, String> e : headers.entrySet()) {
        g.writeStringField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /**
   * The headers in a column value; {@code null} or blank is none.
   *
   * @throws OutboxException if the text is not a flat JSON object of strings
   */
  public static Map<String, String> decode(String json) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (json == null || json.isBlank()) {
      return headers;
    }
    try (JsonParser p = JSON.createParser(json)) {
      expect(p.nextToken() == JsonToken.START_OBJECT);
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        expect(p.nextToken() == JsonToken.VALUE_STRING);
        headers.put(name, p.getText());
      }
      expect(p.currentToken() == JsonToken.END_OBJECT && p.nextToken() == null);
    } catch (IOException e) {
      throw new OutboxException("headers column is not valid JSON: " + e.getMessage(), e);
    }
    return headers;
  }

  private static void expect(boolean condition) {
    if (!condition) {
      throw new OutboxException("headers column must be a flat JSON object of string values");
    }
  }
}
