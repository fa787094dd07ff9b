package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.outboxrelay.daemon.config.ConfigLoader;
import dev.outboxrelay.daemon.config.DaemonConfig;
import dev.outboxrelay.daemon.config.RelayConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml, checked without a Docker engine: it parses, has every service the README
 * promises, and each relay service's mounted config plus its {@code OUTBOX_*} environment loads
 * through the daemon's own {@link ConfigLoader}, pointing at services and ports that exist;
 * Prometheus scrapes both relays on their HTTP port and loads the mounted rules, Grafana gets the
 * Prometheus datasource and the dashboard through its mounted provisioning files.
 */
class DockerComposeTest {
  private static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();
  private static final Pattern DEFAULTED = Pattern.compile("\\$\\{([A-Z_]+):-([^}]*)}");

  private final JsonNode services = compose().get("services");

  @Test
  void hasTheDatabasesBrokersAndBothRelays() {
    List<String> names = new ArrayList<>();
    services.fieldNames().forEachRemaining(names::add);
    assertThat(names)
        .containsExactlyInAnyOrder(
            "postgres",
            "mysql",
            "kafka",
            "rocketmq-namesrv",
            "rocketmq-broker",
            "relay-polling",
            "relay-cdc",
            "prometheus",
            "grafana");
    assertThat(services.at("/postgres/command").toString()).contains("wal_level=logical");
    assertThat(services.at("/mysql/command").toString())
        .contains("--log-bin")
        .contains("--binlog-format=ROW")
        .contains("--server-id=1");
    assertThat(services.at("/mysql/image").asText()).startsWith("mysql:8");
    assertThat(services.at("/kafka/environment/KAFKA_PROCESS_ROLES").asText())
        .isEqualTo("broker,controller");
  }

  @Test
  void thePollingRelayLoadsAndPointsAtPostgresAndKafka() throws Exception {
    RelayConfig r = relayOf("relay-polling");
    assertThat(r.mode()).isEqualTo(RelayConfig.Mode.POLLING);
    assertPointsAt(r.database().url().substring("jdbc:".length()), "postgres");
    assertPointsAt("kafka://" + r.publisher().settings().get("bootstrap.servers"), "kafka");
    assertThat(r.database().password()).isEqualTo("outbox");
    assertThat(r.database().username())
        .isEqualTo(services.at("/postgres/environment/POSTGRES_USER").asText());
  }

  @Test
  void theCdcRelayLoadsAndPointsAtMysqlAndRocketMq() throws Exception {
    RelayConfig r = relayOf("relay-cdc");
    assertThat(r.mode()).isEqualTo(RelayConfig.Mode.CDC);
    assertPointsAt(r.database().url().substring("jdbc:".length()), "mysql");
    assertPointsAt("rmq://" + r.publisher().settings().get("namesrvAddr"), "rocketmq-namesrv");
    assertThat(r.debezium()).containsEntry("database.server.id", "5401");
    assertThat(r.database().username())
        .isEqualTo(services.at("/mysql/environment/MYSQL_USER").asText());
  }

  @Test
  void relayServicesRunTheDaemonJarThatTheBuildMakesAndExposeItsHttpPort() throws Exception {
    for (String name : List.of("relay-polling", "relay-cdc")) {
      JsonNode s = services.get(name);
      assertThat(s.get("command").toString())
          .contains("\"-jar\"")
          .contains("\"run\"")
          .contains("\"--config\"");
      String jarMount = s.get("volumes").get(0).asText();
      assertThat(jarMount)
          .startsWith("./outbox-relay-daemon/target/outbox-relay-daemon-")
          .contains("-all.jar:");
      DaemonConfig config = configOf(name);
      assertThat(containerPorts(s)).contains(config.http().port());
      // The daemon binds 127.0.0.1 by default: a published container port needs 0.0.0.0.
      assertThat(config.http().host()).as(name + " http.host").isEqualTo("0.0.0.0");
    }
  }

  @Test
  void prometheusScrapesBothRelaysOnTheirHttpPortAndLoadsTheMountedRules() throws Exception {
    JsonNode prometheus = yaml(mountSource("prometheus", "/etc/prometheus/prometheus.yml"));
    List<String> hosts = new ArrayList<>();
    for (JsonNode job : prometheus.get("scrape_configs")) {
      assertThat(job.get("job_name").asText()).isEqualTo("outbox-relay");
      for (JsonNode target : job.at("/static_configs/0/targets")) {
        URI u = URI.create("http://" + target.asText());
        hosts.add(u.getHost());
        assertThat(u.getPort()).as(target.asText()).isEqualTo(configOf(u.getHost()).http().port());
      }
    }
    assertThat(hosts).containsExactlyInAnyOrder("relay-polling", "relay-cdc");
    for (JsonNode rules : prometheus.get("rule_files")) {
      assertThat(ROOT.resolve(mountSource("prometheus", rules.asText()))).isRegularFile();
    }
  }

  @Test
  void grafanaGetsThePrometheusDatasourceAndTheDashboard() throws Exception {
    String provisioning = mountSource("grafana", "/etc/grafana/provisioning");
    JsonNode source = yaml(provisioning + "/datasources/prometheus.yml").at("/datasources/0");
    assertPointsAt(source.get("url").asText(), "prometheus");
    JsonNode provider = yaml(provisioning + "/dashboards/outbox-relay.yml").at("/providers/0");
    String dashboard =
        mountSource("grafana", provider.at("/options/path").asText() + "/outbox-relay.json");
    JsonNode json = new ObjectMapper().readTree(Files.readString(ROOT.resolve(dashboard)));
    for (JsonNode panel : json.get("panels")) {
      if (panel.has("targets")) {
        assertThat(panel.at("/datasource/uid").asText())
            .as(panel.get("title").asText())
            .isEqualTo(source.get("uid").asText());
      }
    }
  }

  /** The host path mounted at {@code containerPath} in the service, relative to the root. */
  private String mountSource(String service, String containerPath) {
    for (JsonNode v : services.get(service).get("volumes")) {
      String[] parts = v.asText().split(":");
      if (parts[1].equals(containerPath)) {
        assertThat(ROOT.resolve(parts[0])).exists();
        return parts[0];
      }
    }
    throw new AssertionError(service + " mounts nothing at " + containerPath);
  }

  private static JsonNode yaml(String path) throws Exception {
    return new ObjectMapper(new YAMLFactory()).readTree(Files.readString(ROOT.resolve(path)));
  }

  private RelayConfig relayOf(String service) throws Exception {
    DaemonConfig c = configOf(service);
    assertThat(c.relays()).hasSize(1);
    return c.relays().get(0);
  }

  /** The mounted config file with the service's environment, through the daemon's loader. */
  private DaemonConfig configOf(String service) throws Exception {
    JsonNode s = services.get(service);
    String configMount = null;
    for (JsonNode v : s.get("volumes")) {
      if (v.asText().endsWith(":/etc/outbox/relay.yaml:ro")) {
        configMount = v.asText().substring(0, v.asText().indexOf(':'));
      }
    }
    assertThat(configMount).as("%s mounts its relay.yaml", service).isNotNull();
    Map<String, String> env = new HashMap<>();
    s.get("environment")
        .fields()
        .forEachRemaining(e -> env.put(e.getKey(), interpolate(e.getValue().asText())));
    assertThat(env.keySet()).allSatisfy(k -> assertThat(k).startsWith(ConfigLoader.ENV_PREFIX));
    return ConfigLoader.parse(Files.readString(ROOT.resolve(configMount)), env);
  }

  /** {@code scheme://host:port/...} names a compose service and a port that service listens on. */
  private void assertPointsAt(String uri, String service) {
    URI u = URI.create(uri);
    assertThat(u.getHost()).isEqualTo(service);
    assertThat(containerPorts(services.get(service))).contains(u.getPort());
  }

  private static List<Integer> containerPorts(JsonNode service) {
    List<Integer> ports = new ArrayList<>();
    for (JsonNode p : service.get("ports")) {
      String[] parts = p.asText().split(":");
      ports.add(Integer.parseInt(parts[parts.length - 1]));
    }
    return ports;
  }

  private static String interpolate(String value) {
    Matcher m = DEFAULTED.matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(m.group(2)));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static JsonNode compose() {
    try {
      return new ObjectMapper(new YAMLFactory())
          .readTree(Files.readString(ROOT.resolve("docker-compose.yml")));
    } catch (Exception e) {
      throw new AssertionError("docker-compose.yml does not parse: " + e.getMessage(), e);
    }
  }
}
