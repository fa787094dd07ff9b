package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxException;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicReference;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;

/** Runs a {@link Deduplicated} method through {@link SpringDedup}. */
final class DeduplicatedInterceptor implements MethodInterceptor {
  private final ObjectProvider<SpringDedup> dedup;

  DeduplicatedInterceptor(ObjectProvider<SpringDedup> dedup) {
    this.dedup = dedup;
  }

  @Override
  public Object invoke(MethodInvocation invocation) throws Throwable {
    ConsumerRecord<?, ?> record = record(invocation);
    SpringDedup d = dedup.getObject();
    Deduplicated annotation =
        AnnotatedElementUtils.findMergedAnnotation(invocation.getMethod(), Deduplicated.class);
    String group =
        annotation == null || annotation.group().isEmpty() ? d.defaultGroup() : annotation.group();
    AtomicReference<Object> result = new AtomicReference<>();
    try {
      d.handle(group, record, () -> result.set(proceed(invocation)));
    } catch (ProceedFailure f) {
      throw f.getCause();
    }
    return result.get();
  }

  private static ConsumerRecord<?, ?> record(MethodInvocation invocation) {
    for (Object arg : invocation.getArguments()) {
      if (arg instanceof ConsumerRecord<?, ?> r) {
        return r;
      }
    }
    Method m = invocation.getMethod();
    throw new OutboxException(
        "@Deduplicated "
            + m.getDeclaringClass().getSimpleName()
            + "."
            + m.getName()
            + " was called without a ConsumerRecord argument");
  }

  /** Keeps a checked Throwable from the method intact through SpringDedup. */
  private static Object proceed(MethodInvocation invocation) {
    try {
      return invocation.proceed();
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new ProceedFailure(t);
    }
  }

  private static final class ProceedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ProceedFailure(Throwable cause) {
      super(cause);
    }
  }
}
