package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.outboxrelay.daemon.config.DaemonConfig.HttpConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The endpoints' routing, methods and bearer token, against the real JDK server on a free port. */
class HttpEndpointsTest {
  private static final String TOKEN = "t0ken-for-the-metrics-endpoint";
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private HttpServer server;

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void onlyExactPathsAreServedAndEverythingElseIs404() throws Exception {
    start(Optional.empty());
    assertThat(call("GET", "/metrics", null)).isEqualTo("200 metrics");
    assertThat(call("GET", "/metrics?x=1", null)).isEqualTo("200 metrics");
    for (String path : new String[] {"/metricsX", "/metrics/", "/health", "/health/liveX", "/"}) {
      assertThat(call("GET", path, null)).as(path).startsWith("404 ");
    }
  }

  @Test
  void onlyGetAndHeadAreAllowed() throws Exception {
    start(Optional.empty());
    for (String method : new String[] {"POST", "DELETE", "PUT", "PATCH", "OPTIONS"}) {
      HttpResponse<String> r = send(method, "/health/live", null);
      assertThat(r.statusCode()).as(method).isEqualTo(405);
      assertThat(r.headers().firstValue("Allow")).as(method).contains("GET, HEAD");
    }
    HttpResponse<String> head = send("HEAD", "/metrics", null);
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
  }

  @Test
  void aConfiguredTokenGuardsMetricsAndLeavesTheProbesOpen() throws Exception {
    start(Optional.of(TOKEN));
    HttpResponse<String> anonymous = send("GET", "/metrics", null);
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.headers().firstValue("WWW-Authenticate"))
        .contains("Bearer realm=\"outbox-relay\"");
    assertThat(anonymous.body()).doesNotContain("metrics");
    assertThat(call("GET", "/metrics", "Bearer wrong-token-of-some-length")).startsWith("401 ");
    assertThat(call("GET", "/metrics", "Basic " + TOKEN)).startsWith("401 ");
    assertThat(call("GET", "/metrics", "Bearer " + TOKEN)).isEqualTo("200 metrics");
    assertThat(call("GET", "/metrics", "bearer " + TOKEN)).isEqualTo("200 metrics");
    assertThat(call("GET", "/health/live", null)).isEqualTo("200 live");
    assertThat(call("GET", "/health/ready", null)).isEqualTo("200 ready");
    // Unknown paths stay 404 without a token: the answer does not depend on the credentials.
    assertThat(call("GET", "/secret", null)).startsWith("404 ");
  }

  private void start(Optional<String> token) {
    HttpConfig config = new HttpConfig("127.0.0.1", 0, token);
    server = HttpEndpoints.bind(config);
    HttpEndpoints.serve(
        server,
        config,
        Map.<String, HttpHandler>of(
            "/health/live", x -> HttpEndpoints.respond(x, 200, "live", "text/plain"),
            "/health/ready", x -> HttpEndpoints.respond(x, 200, "ready", "text/plain"),
            "/metrics", x -> HttpEndpoints.respond(x, 200, "metrics", "text/plain")));
  }

  private String call(String method, String path, String authorization) throws Exception {
    HttpResponse<String> r = send(method, path, authorization);
    return r.statusCode() + " " + r.body();
  }

  private HttpResponse<String> send(String method, String path, String authorization)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
