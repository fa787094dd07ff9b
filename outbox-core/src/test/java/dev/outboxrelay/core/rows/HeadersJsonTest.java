package dev.outboxrelay.core.rows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeadersJsonTest {

  @Test
  void roundTripsInOrderWithEscapes() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("b", "quote \" and \\ and \n and é");
    headers.put("a", "");
    assertThat(HeadersJson.decode(HeadersJson.encode(headers))).containsExactlyEntriesOf(headers);
  }

  @Test
  void noHeadersIsNull() {
    assertThat(HeadersJson.encode(Map.of())).isNull();
    assertThat(HeadersJson.decode(null)).isEmpty();
  }

  @Test
  void rejectsAnythingButAFlatObjectOfStrings() {
    assertThatThrownBy(() -> HeadersJson.decode("{\"a\": 1}")).isInstanceOf(OutboxException.class);
    assertThatThrownBy(() -> HeadersJson.decode("[]")).isInstanceOf(OutboxException.class);
    assertThatThrownBy(() -> HeadersJson.decode("{\"a\": \"b\"} x"))
        .isInstanceOf(OutboxException.class);
    assertThatThrownBy(() -> HeadersJson.decode("{not json")).isInstanceOf(OutboxException.class);
  }
}
