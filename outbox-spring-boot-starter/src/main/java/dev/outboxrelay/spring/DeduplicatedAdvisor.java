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

/**
 * Applies {@link DeduplicatedInterceptor} to {@link Deduplicated} methods, as Spring applies
 * {@code @Transactional}: an infrastructure advisor picked up by the auto-proxy creator. A method
 * without a {@code ConsumerRecord} parameter fails the application's start.
 */
final class DeduplicatedAdvisor extends AbstractPointcutAdvisor {
  private static final long serialVersionUID = 1L;
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
        if (Arrays.stream(method.getParameterTypes())
            .noneMatch(ConsumerRecord.class::isAssignableFrom)) {
          throw new OutboxException(
              "@Deduplicated "
                  + targetClass.getSimpleName()
                  + "."
                  + method.getName()
                  + " needs a ConsumerRecord parameter (the message id is its \'id\' header)");
        }
        return true;
      }
    };
  }

  @Override
  public DeduplicatedInterceptor getAdvice() {
    return interceptor;
  }
}
