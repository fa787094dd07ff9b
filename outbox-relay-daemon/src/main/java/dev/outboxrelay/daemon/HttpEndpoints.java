package dev.outboxrelay.daemon;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.outboxrelay.daemon.config.DaemonConfig.HttpConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;

/**
 * The daemon's HTTP server: exact paths only (anything else is 404), {@code GET} and {@code HEAD}
 * only (anything else is 405 with {@code Allow: GET, HEAD}), and, when {@code http.token} is set,
 * {@code Authorization: Bearer <token>} on every path but the open ones (401 otherwise, compared in
 * constant time).
 */
final class HttpEndpoints implements HttpHandler {
  /** Paths served without the token: kubelet and load-balancer probes carry no credentials. */
  static final Set<String> OPEN = Set.of("/health/live", "/health/ready");

  private final Map<String, HttpHandler> routes;
  private final Optional<byte[]> tokenDigest;

  private HttpEndpoints(Map<String, HttpHandler> routes, Optional<String> token) {
    this.routes = Map.copyOf(routes);
    this.tokenDigest = token.map(HttpEndpoints::sha256);
  }

  /**
   * Binds {@code config.host():config.port()} without serving yet, so a busy port is found before
   * any relay takes work.
   *
   * @throws StartupFailure {@code PORT_IN_USE} when another process listens there
   */
  static HttpServer bind(HttpConfig config) {
    String where = "http.port " + config.port() + " on " + config.host();
    try {
      return HttpServer.create(new InetSocketAddress(config.host(), config.port()), 16);
    } catch (BindException e) {
      throw new StartupFailure(
          StartupFailure.Kind.PORT_IN_USE,
          where
              + " cannot be bound ("
              + e.getMessage()
              + "): another process listens there;"
              + " choose another http.port (OUTBOX_HTTP_PORT), 0 picks a free one");
    } catch (IOException e) {
      throw new ConfigError(where + " cannot be bound: " + e.getMessage(), e);
    }
  }

  /** Serves the routes on the bound server, on two daemon threads. */
  static void serve(HttpServer http, HttpConfig config, Map<String, HttpHandler> routes) {
    http.createContext("/", new HttpEndpoints(routes, config.token()));
    http.setExecutor(
        Executors.newFixedThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "outbox-http");
              t.setDaemon(true);
              return t;
            }));
    http.start();
  }

  @Override
  public void handle(HttpExchange x) throws IOException {
    try (x) {
      String path = x.getRequestURI().getPath();
      HttpHandler route = routes.get(path);
      if (route == null) {
        respond(x, 404, "{\"error\":\"not found\"}", "json");
      } else if (!x.getRequestMethod().equals("GET") && !x.getRequestMethod().equals("HEAD")) {
        x.getResponseHeaders().set("Allow", "GET, HEAD");
        respond(x, 405, "{\"error\":\"method not allowed\"}", "json");
      } else if (!OPEN.contains(path) && !authorized(x)) {
        x.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"outbox-relay\"");
        respond(x, 401, "{\"error\":\"unauthorized\"}", "json");
      } else {
        route.handle(x);
      }
    }
  }

  private boolean authorized(HttpExchange x) {
    if (tokenDigest.isEmpty()) {
      return true;
    }
    String header = x.getRequestHeaders().getFirst("Authorization");
    String given =
        header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
            ? header.substring(7).trim()
            : "";
    // Digests of equal length compared with MessageDigest.isEqual: no timing hint of the token.
    return MessageDigest.isEqual(tokenDigest.get(), sha256(given));
  }

  /** Writes a response; for {@code HEAD} the headers only. */
  static void respond(HttpExchange x, int status, String body, String type) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", type.equals("json") ? "application/json" : type);
    if (x.getRequestMethod().equals("HEAD")) {
      x.sendResponseHeaders(status, -1);
      return;
    }
    x.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
