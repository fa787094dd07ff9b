package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.DedupStore;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.writer.Outbox;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.function.SingletonSupplier;

/**
 * The writer side and dedup: an {@link Outbox} bean ({@link SpringOutbox}) joining Spring-managed
 * transactions, optional schema creation, {@link OutboxAdmin}, {@link SpringDedup} and the {@link
 * Deduplicated} advice, and the dedup meter when Micrometer is present. Needs one DataSource.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
      "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
      "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration"
    })
@ConditionalOnBooleanProperty(name = "outbox.enabled", matchIfMissing = true)
@ConditionalOnSingleCandidate(DataSource.class)
@EnableConfigurationProperties(OutboxProperties.class)
public class OutboxAutoConfiguration {

  static OutboxTable table(OutboxProperties p) {
    OutboxTable.Builder b = OutboxTable.builder().name(p.getTable().getName());
    if (p.getTable().getSchema() != null) {
      b.schema(p.getTable().getSchema());
    }
    return b.build();
  }

  @Bean
  @ConditionalOnMissingBean(Outbox.class)
  SpringOutbox outbox(DataSource dataSource, OutboxProperties p) {
    Outbox writer =
        Outbox.builder()
            .table(table(p))
            .maxPayloadBytes(p.getWriter().getMaxPayloadBytes())
            .requireTransaction(p.getWriter().isRequireTransaction())
            .keyOrder(p.getWriter().isKeyOrder())
            .wakeUpInterval(p.getWriter().getWakeUpInterval())
            .build();
    return new SpringOutbox(
        writer, dataSource, p.getWriter().isRequireTransaction(), p.getWriter().isWriteAtCommit());
  }

  @Bean
  @ConditionalOnMissingBean
  OutboxAdmin outboxAdmin(DataSource dataSource, OutboxProperties p) {
    return OutboxAdmin.of(dataSource, table(p));
  }

  @Bean
  @ConditionalOnMissingBean
  DedupStore outboxDedupStore(DataSource dataSource, OutboxProperties p) {
    return DedupStore.builder()
        .dataSource(dataSource)
        .tableName(p.getDedup().getTableName())
        .highWaterMarkTableName(p.getDedup().getHighWaterMarkTableName())
        .build();
  }

  @Bean
  @ConditionalOnBooleanProperty("outbox.schema.create")
  OutboxSchemaInitializer outboxSchemaInitializer(
      DataSource dataSource, OutboxProperties p, DedupStore store) {
    return new OutboxSchemaInitializer(dataSource, table(p), store);
  }

  @Bean
  @ConditionalOnMissingBean
  SpringDedup springDedup(
      DataSource dataSource,
      ObjectProvider<PlatformTransactionManager> transactionManager,
      DedupStore store,
      OutboxProperties p,
      Environment env,
      ObjectProvider<DedupListener> listeners) {
    // Resolved at first use, so the order of the transaction manager's auto-configuration and
    // ours does not matter.
    Supplier<TransactionTemplate> transactions =
        SingletonSupplier.of(() -> new TransactionTemplate(transactionManager.getObject()));
    String group =
        p.getDedup().getGroup() != null
            ? p.getDedup().getGroup()
            : env.getProperty("spring.kafka.consumer.group-id");
    return new SpringDedup(
        dataSource,
        transactions,
        store,
        p.getDedup().isHighWaterMark(),
        group,
        listeners.orderedStream().toList());
  }

  /** {@link SpringKafkaDedup} and {@link Deduplicated} on Kafka listener methods. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(ConsumerRecord.class)
  static class KafkaDedupConfiguration {
    @Bean
    @ConditionalOnMissingBean
    SpringKafkaDedup springKafkaDedup(SpringDedup dedup) {
      return new SpringKafkaDedup(dedup);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static DeduplicatedAdvisor outboxDeduplicatedAdvisor(ObjectProvider<SpringDedup> dedup) {
      return new DeduplicatedAdvisor(dedup);
    }

    /** A @Deduplicated @KafkaListener that nothing would call fails the start: see the class. */
    @Bean
    @ConditionalOnClass(name = "org.springframework.kafka.annotation.KafkaListener")
    static KafkaListenerInfrastructureCheck outboxKafkaListenerInfrastructureCheck(
        ConfigurableListableBeanFactory beans) {
      return new KafkaListenerInfrastructureCheck(beans);
    }
  }

  /** The dedup meter; the relay's are in {@link OutboxRelayMetricsConfiguration}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterBinder.class)
  static class MetricsConfiguration {
    @Bean
    @ConditionalOnMissingBean
    DedupMeters outboxDedupMeters() {
      return new DedupMeters();
    }
  }
}
