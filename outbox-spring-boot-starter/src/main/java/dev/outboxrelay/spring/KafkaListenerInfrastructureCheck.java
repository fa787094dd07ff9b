package dev.outboxrelay.spring;

import static org.springframework.core.annotation.MergedAnnotations.SearchStrategy.TYPE_HIERARCHY;

import dev.outboxrelay.core.OutboxException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Fails the application's start when a {@link Deduplicated} method is a Kafka listener but nothing
 * would ever call it: without Spring Kafka's listener infrastructure ({@code @EnableKafka}, which
 * Spring Boot 4 applies from {@code spring-boot-kafka}, not from plain {@code spring-kafka}),
 * Spring ignores {@code @KafkaListener} without an error or a warning while the relay publishes
 * everything. Names by string: the starter does not depend on spring-kafka.
 */
final class KafkaListenerInfrastructureCheck implements SmartInitializingSingleton {
  static final String LISTENER_PROCESSOR =
      "org.springframework.kafka.config.internalKafkaListenerAnnotationProcessor";
  private static final String KAFKA_LISTENER = "org.springframework.kafka.annotation.KafkaListener";
  private static final String KAFKA_HANDLER = "org.springframework.kafka.annotation.KafkaHandler";

  private final ConfigurableListableBeanFactory beans;

  KafkaListenerInfrastructureCheck(ConfigurableListableBeanFactory beans) {
    this.beans = beans;
  }

  @Override
  public void afterSingletonsInstantiated() {
    if (beans.containsBean(LISTENER_PROCESSOR)) {
      return;
    }
    List<String> listeners = deduplicatedListeners();
    if (!listeners.isEmpty()) {
      throw new OutboxException(
          "@Deduplicated Kafka listener "
              + String.join(", ", listeners)
              + " would never run: this application has no Kafka listener infrastructure, so"
              + " Spring ignores @KafkaListener methods. With Spring Boot 4 add"
              + " org.springframework.boot:spring-boot-starter-kafka (plain"
              + " org.springframework.kafka:spring-kafka configures no listeners), or put"
              + " @EnableKafka on a @Configuration class and declare a"
              + " 'kafkaListenerContainerFactory' bean.");
    }
  }

  private List<String> deduplicatedListeners() {
    List<String> found = new ArrayList<>();
    for (String name : beans.getBeanDefinitionNames()) {
      Class<?> type = beans.getType(name, false);
      if (type == null) {
        continue;
      }
      Class<?> user = ClassUtils.getUserClass(type);
      boolean listenerClass =
          MergedAnnotations.from(user, TYPE_HIERARCHY).isPresent(KAFKA_LISTENER);
      ReflectionUtils.doWithMethods(
          user,
          m -> found.add(user.getSimpleName() + "." + m.getName()),
          m -> isDeduplicatedListener(m, listenerClass));
    }
    return found.stream().distinct().toList();
  }

  private static boolean isDeduplicatedListener(Method m, boolean inListenerClass) {
    // As DeduplicatedAdvisor finds @Deduplicated: on the method or what it overrides.
    MergedAnnotations a = MergedAnnotations.from(m, TYPE_HIERARCHY);
    return a.isPresent(Deduplicated.class)
        && (a.isPresent(KAFKA_LISTENER) || (inListenerClass && a.isPresent(KAFKA_HANDLER)));
  }
}
