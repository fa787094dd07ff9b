package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * {@code outbox.relay.enabled=true}: a publisher from {@code outbox.publisher.*} (unless the
 * application defines a {@link Publisher} bean) and the embedded relay as an {@link
 * OutboxRelayLifecycle}; a health indicator when Spring Boot's health module is present, and the
 * relay's meters when Micrometer is ({@link OutboxRelayMetricsConfiguration}).
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "outbox.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("outbox.relay.enabled")
@ConditionalOnSingleCandidate(DataSource.class)
@Import(OutboxRelayMetricsConfiguration.class)
public class OutboxRelayAutoConfiguration {

  /**
   * Looks in the application's class loader, not the starter's: a publisher jar the application
   * loads (a child class loader, a plugin directory) is not visible from the starter's classes.
   */
  @Bean
  @ConditionalOnMissingBean(Publisher.class)
  Publisher outboxPublisher(OutboxProperties p, Environment env, ApplicationContext context) {
    return PublisherFactories.create(p.getPublisher(), env, context.getClassLoader());
  }

  @Bean
  @ConditionalOnMissingBean
  OutboxRelayLifecycle outboxRelay(
      OutboxProperties p,
      Environment env,
      DataSource dataSource,
      Publisher publisher,
      ObjectProvider<RelayListener> listeners,
      ObjectProvider<OutboxSchemaInitializer> schema,
      ApplicationContext context) {
    schema.ifAvailable(s -> {}); // the tables exist before the relay is built
    OutboxProperties.Relay r = p.getRelay();
    OutboxTable table = OutboxAutoConfiguration.table(p);
    boolean cdc = r.getMode() == OutboxProperties.RelayMode.CDC;
    String name = r.getName() != null ? r.getName() : cdc ? "outbox-cdc" : "outbox-relay";
    if (cdc && !ClassUtils.isPresent(CdcRelayFactory.CLASS, context.getClassLoader())) {
      throw new OutboxConfigException(
          "outbox.relay.mode", "cdc", "needs dev.outboxrelay:outbox-relay-cdc on the classpath");
    }
    Supplier<Relay> factory =
        () -> {
          RelayListener listener = new CompositeRelayListener(listeners.orderedStream().toList());
          return cdc
              ? CdcRelayFactory.cdc(r, name, env, dataSource, table, publisher, listener)
              : RelayFactories.polling(r, name, dataSource, table, publisher, listener);
        };
    return new OutboxRelayLifecycle(name, r.getMode(), r.isAutoStartup(), factory);
  }

  /** Actuator health of the embedded relay. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  @ConditionalOnEnabledHealthIndicator("outbox")
  static class HealthConfiguration {
    @Bean
    @ConditionalOnMissingBean(name = "outboxHealthIndicator")
    OutboxHealthIndicator outboxHealthIndicator(OutboxRelayLifecycle relay, OutboxAdmin admin) {
      return new OutboxHealthIndicator(relay, admin);
    }
  }
}
