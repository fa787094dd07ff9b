package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxException;
import java.lang.reflect.Method;
import java.util.Arrays;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * Applies {@link DeduplicatedInterceptor} to {@link Deduplicated} methods, as Spring applies
 * {@code @Transactional}: an infrastructure advisor picked up by the auto-proxy creator. A method
 * without a {@code ConsumerRecord} or {@code List<ConsumerRecord>} parameter fails the
 * application's start, and so does the batch form without spring-kafka.
 */
final class DeduplicatedAdvisor extends AbstractPointcutAdvisor {
  private static final long serialVersionUID = 1L;
  private static final String BATCH_FAILED =
      "org.springframework.kafka.listener.BatchListenerFailedException";
  private final transient DeduplicatedInterceptor interceptor;

  DeduplicatedAdvisor(ObjectProvider<SpringDedup> dedup) {
    this.interceptor = new DeduplicatedInterceptor(dedup);
    // Inside @Transactional's advice if both are present: one transaction either way.
    setOrder(LOWEST_PRECEDENCE);
  }

  @Override
  public Pointcut getPointcut() {
    return new StaticMethodMatcherPointcut() {
      @Override
      public boolean matches(Method method, Class<?> targetClass) {
        if (!AnnotatedElementUtils.hasAnnotation(method, Deduplicated.class)) {
          return false;
        }
        boolean single =
            Arrays.stream(method.getParameterTypes())
                .anyMatch(ConsumerRecord.class::isAssignableFrom);
        boolean batch = DeduplicatedInterceptor.batchParameter(method) >= 0;
        if (!single && !batch) {
          throw new OutboxException(
              name(method, targetClass)
                  + " needs a ConsumerRecord or List<ConsumerRecord> parameter (the message id"
                  + " is the record's \'id\' header)");
        }
        if (!single
            && !ClassUtils.isPresent(BATCH_FAILED, method.getDeclaringClass().getClassLoader())) {
          throw new OutboxException(
              name(method, targetClass)
                  + " takes a batch, which needs spring-kafka: a failed record is reported with"
                  + " its BatchListenerFailedException");
        }
        return true;
      }
    };
  }

  private static String name(Method method, Class<?> targetClass) {
    return "@Deduplicated " + targetClass.getSimpleName() + "." + method.getName();
  }

  @Override
  public DeduplicatedInterceptor getAdvice() {
    return interceptor;
  }
}
