package dev.outboxrelay.spring.plainkafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.spring.Deduplicated;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.util.ClassUtils;

/**
 * A Spring Boot application as a user builds it with the starter and plain spring-kafka: this
 * module's classpath (Maven resolves it from the pom, nothing filtered or excluded by hand) and
 * auto-configuration discovered as in any application. Spring Boot 4 moved @EnableKafka into
 * spring-boot-kafka; without it a @KafkaListener is silently never called.
 */
class PlainSpringKafkaTest {

  @Test
  void thisClasspathHasSpringKafkaButNotSpringBootsKafkaModule() {
    assertThat(ClassUtils.isPresent(KafkaListener.class.getName(), null)).isTrue();
    assertThat(
            ClassUtils.isPresent(
                "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration", null))
        .isFalse();
  }

  @Test
  void aDeduplicatedKafkaListenerWithoutListenerInfrastructureFailsTheStart() {
    assertThatThrownBy(() -> start(ShippingApp.class).close())
        .isInstanceOf(OutboxException.class)
        .hasMessageContaining("ShippingListener.onOrder would never run")
        .hasMessageContaining("org.springframework.boot:spring-boot-starter-kafka")
        .hasMessageContaining("@EnableKafka");
  }

  @Test
  void withEnableKafkaAndAContainerFactoryTheSameListenerGetsItsContainer() {
    try (ConfigurableApplicationContext app =
        start(ShippingApp.class, ListenerInfrastructure.class)) {
      assertThat(app.getBean(KafkaListenerEndpointRegistry.class).getListenerContainerIds())
          .containsExactly("shipping");
    }
  }

  private static ConfigurableApplicationContext start(Class<?>... sources) {
    return new SpringApplicationBuilder(sources)
        .web(WebApplicationType.NONE)
        .properties("spring.main.banner-mode=off")
        .run();
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class ShippingApp {
    @Bean
    DataSource dataSource() {
      return new SimpleDriverDataSource(); // never asked for a connection: nothing is consumed
    }

    @Bean
    ShippingListener shippingListener() {
      return new ShippingListener();
    }
  }

  static class ShippingListener {
    @Deduplicated
    @KafkaListener(id = "shipping", topics = "outbox.event.order", groupId = "shipping")
    public void onOrder(ConsumerRecord<String, String> record) {}
  }

  /** What spring-boot-kafka would configure, by hand; containers not started (no broker here). */
  @Configuration(proxyBeanMethods = false)
  @EnableKafka
  static class ListenerInfrastructure {
    @Bean
    ConcurrentKafkaListenerContainerFactory<String, String> kafkaListenerContainerFactory() {
      ConcurrentKafkaListenerContainerFactory<String, String> factory =
          new ConcurrentKafkaListenerContainerFactory<>();
      factory.setConsumerFactory(
          new DefaultKafkaConsumerFactory<>(
              Map.of(
                  ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9",
                  ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                  ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class)));
      factory.setAutoStartup(false);
      return factory;
    }
  }
}
