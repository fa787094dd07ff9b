package dev.outboxrelay.core;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks secrets by the name of the setting that holds them, never by searching for their value: a
 * search for the value garbles every line that happens to contain the same text, and the garbled
 * spots tell the reader what the secret is. One helper for every place a setting, a URL or a
 * properties map is printed.
 */
public final class Secrets {
  /** What a masked value is printed as. */
  public static final String MASK = "******";

  /**
   * A key is secret when its name ends with one of these (case-insensitive): {@code password},
   * {@code ssl.key.password}, {@code trustStorePassword}, {@code client.secret}, {@code secretKey},
   * {@code http.token}, {@code sasl.jaas.config}, {@code …passphrase}. Ending with, not containing:
   * {@code ssl.keystore.location} or {@code sasl.oauthbearer.token.endpoint.url} stay readable.
   */
  private static final String SECRET_END =
      "password|passwd|pwd|passphrase|secret|token|credentials?|sasl[._-]jaas[._-]config"
          + "|private[._-]?key|access[._-]?key|secret[._-]?key|keystore[._-]key";

  private static final Pattern SECRET_KEY =
      Pattern.compile("(?i).*(?:" + SECRET_END + "|api[._-]?key)");

  /**
   * {@code key=value}, {@code key: value}, {@code "key":"value"} or {@code key = value} where the
   * key looks secret: URL query parameters, properties dumps, JSON, driver and client messages. In
   * free text an API key needs its separator ({@code api-key}): Kafka logs {@code
   * apiKey=API_VERSIONS} for a protocol request type.
   */
  private static final Pattern KEY_VALUE =
      Pattern.compile(
          "(?i)(?<![A-Za-z0-9_.\\-])([A-Za-z0-9_.\\-]*(?:"
              + SECRET_END
              + "|api[._-]key)[\"']?[ \\t]*[=:][ \\t]*)"
              + "(\"[^\"]*\"|'[^']*'|\\[hidden]|[^\\s&;,\"'}\\])]+)");

  /** Secret words as letters only, for catching misspellings in a properties dump. */
  private static final List<String> SECRET_LETTERS =
      List.of(
          "password",
          "passphrase",
          "secret",
          "token",
          "credentials",
          "sasljaasconfig",
          "privatekey",
          "accesskey",
          "secretkey",
          "apikey",
          "keystorekey");

  /** The password of {@code scheme://user:password@host} URLs. */
  private static final Pattern USER_INFO = Pattern.compile("(//[^/:@\\s]+:)([^@/\\s]+)(@)");

  private Secrets() {}

  /** Whether a setting with this name holds a secret. */
  public static boolean isSecretKey(String key) {
    return key != null && SECRET_KEY.matcher(key).matches();
  }

  /**
   * The value as text for an error message: a fixed mask when the key names a secret, else the
   * value with any secret it embeds (a URL's {@code password} parameter) masked.
   */
  public static String maskIfSecret(String key, Object value) {
    if (isSecretKey(key)) {
      return MASK;
    }
    return value instanceof String ? "'" + maskText((String) value) + "'" : String.valueOf(value);
  }

  /** A JDBC or other URL with the values of secret parameters and a user-info password masked. */
  public static String maskUrl(String url) {
    return maskText(url);
  }

  /**
   * Free text (a log line, an exception message, a URL) with every value that follows a
   * secret-looking key ({@code password=…}, {@code sasl.jaas.config: …}, {@code "token":"…"}) and
   * every URL user-info password masked. Text without such keys is unchanged.
   */
  public static String maskText(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String out = USER_INFO.matcher(text).replaceAll("$1" + MASK + "$3");
    Matcher m = KEY_VALUE.matcher(out);
    if (!m.find()) {
      return out;
    }
    return m.replaceAll(r -> Matcher.quoteReplacement(r.group(1) + MASK));
  }

  /**
   * Settings for printing, sorted by key, with the values of secret keys masked, and of keys that
   * nearly end with a secret word too ({@code pasword}, {@code secertKey}): a client may accept a
   * misspelled key without a word, and its value is then most likely the secret.
   */
  public static Map<String, String> maskProperties(Map<?, ?> settings) {
    Map<String, String> out = new TreeMap<>();
    settings.forEach(
        (k, v) -> {
          String key = String.valueOf(k);
          boolean secret = isSecretKey(key) || nearlySecret(key);
          out.put(key, secret ? MASK : maskText(String.valueOf(v)));
        });
    return out;
  }

  private static boolean nearlySecret(String key) {
    String letters = key.toLowerCase(Locale.ROOT).replaceAll("[^a-z]", "");
    for (String word : SECRET_LETTERS) {
      int allowed = word.length() >= 6 ? 2 : 1;
      for (int n = word.length() - allowed; n <= word.length() + allowed; n++) {
        if (n > 0
            && n <= letters.length()
            && EditDistance.between(letters.substring(letters.length() - n), word) <= allowed) {
          return true;
        }
      }
    }
    return false;
  }
}
