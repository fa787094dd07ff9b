package dev.outboxrelay.publisher.rocketmq;

import dev.outboxrelay.core.OutboxConfigException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.rocketmq.client.producer.DefaultMQProducer;

/**
 * Passes settings through to {@link DefaultMQProducer} (and its {@code ClientConfig}) by their bean
 * names, e.g. {@code sendMsgTimeout=3000} calls {@code setSendMsgTimeout(3000)}: whatever setter
 * the client has, without re-modelling it. Values are text, converted to the setter's type (String,
 * int, long, boolean or an enum).
 */
final class ProducerSettings {
  private ProducerSettings() {}

  static void apply(DefaultMQProducer producer, Map<String, String> settings) {
    settings.forEach((key, value) -> apply(producer, key, value));
  }

  private static void apply(DefaultMQProducer producer, String key, String value) {
    Method setter =
        setter(key)
            .orElseThrow(
                () ->
                    new OutboxConfigException(
                        key, "is not a setting of RocketMQ's DefaultMQProducer"));
    try {
      setter.invoke(producer, convert(key, value, setter.getParameterTypes()[0]));
    } catch (IllegalAccessException | InvocationTargetException e) {
      Throwable cause = e instanceof InvocationTargetException t ? t.getCause() : e;
      throw new OutboxConfigException(key, value, "was refused by the client: " + cause);
    }
  }

  static Optional<Method> setter(String key) {
    if (key == null || key.isEmpty()) {
      return Optional.empty();
    }
    String name = "set" + Character.toUpperCase(key.charAt(0)) + key.substring(1);
    return Arrays.stream(DefaultMQProducer.class.getMethods())
        .filter(m -> m.getName().equals(name) && m.getParameterCount() == 1)
        .filter(m -> convertible(m.getParameterTypes()[0]))
        .findFirst();
  }

  private static boolean convertible(Class<?> type) {
    return type == String.class
        || type == int.class
        || type == long.class
        || type == boolean.class
        || type.isEnum();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object convert(String key, String value, Class<?> type) {
    String v = value.trim();
    try {
      if (type == int.class) {
        return Integer.parseInt(v);
      } else if (type == long.class) {
        return Long.parseLong(v);
      } else if (type == boolean.class) {
        if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
          throw new IllegalArgumentException();
        }
        return Boolean.parseBoolean(v);
      } else if (type.isEnum()) {
        return Enum.valueOf((Class<Enum>) type, v.toUpperCase(Locale.ROOT));
      }
      return value;
    } catch (IllegalArgumentException e) {
      throw new OutboxConfigException(key, value, "must be of type " + type.getSimpleName());
    }
  }
}
