package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.dedup.KafkaDedup;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;

/**
 * Runs a {@link Deduplicated} method through {@link SpringDedup}: per record, or per batch for a
 * {@code List<ConsumerRecord>} parameter ({@link DeduplicatedBatch}).
 */
final class DeduplicatedInterceptor implements MethodInterceptor {
  private final ObjectProvider<SpringDedup> dedup;

  DeduplicatedInterceptor(ObjectProvider<SpringDedup> dedup) {
    this.dedup = dedup;
  }

  @Override
  public Object invoke(MethodInvocation invocation) throws Throwable {
    SpringDedup d = dedup.getObject();
    String group = group(invocation.getMethod());
    if (group == null) {
      group = d.defaultGroup();
    }
    int batch = batchParameter(invocation.getMethod());
    if (batch >= 0 && !hasRecordArgument(invocation)) {
      return DeduplicatedBatch.invoke(invocation, batch, d, group);
    }
    ConsumerRecord<?, ?> record = record(invocation);
    AtomicReference<Object> result = new AtomicReference<>();
    try {
      d.handle(group, KafkaDedup.identity(record), () -> result.set(proceed(invocation)));
    } catch (ProceedFailure f) {
      throw f.getCause();
    }
    return result.get();
  }

  /**
   * {@code @Deduplicated(group)}, else the {@code groupId} of the method's {@code @KafkaListener}
   * when it is a literal (looked up by name: spring-kafka stays optional), else null.
   */
  static String group(Method method) {
    Deduplicated annotation =
        AnnotatedElementUtils.findMergedAnnotation(method, Deduplicated.class);
    if (annotation != null && !annotation.group().isEmpty()) {
      return annotation.group();
    }
    MergedAnnotation<Annotation> listener =
        MergedAnnotations.from(method).get("org.springframework.kafka.annotation.KafkaListener");
    if (listener.isPresent()) {
      String groupId = listener.getString("groupId");
      if (!groupId.isBlank() && !groupId.contains("${") && !groupId.contains("#{")) {
        return groupId;
      }
    }
    return null;
  }

  /**
   * The index of a batch listener's {@code List<ConsumerRecord<K, V>>} parameter, or -1 if the
   * method has none.
   */
  static int batchParameter(Method method) {
    for (int i = 0; i < method.getParameterCount(); i++) {
      ResolvableType type = ResolvableType.forMethodParameter(method, i);
      if (List.class.equals(type.resolve())
          && ConsumerRecord.class.equals(type.getGeneric(0).resolve())) {
        return i;
      }
    }
    return -1;
  }

  private static boolean hasRecordArgument(MethodInvocation invocation) {
    for (Object arg : invocation.getArguments()) {
      if (arg instanceof ConsumerRecord<?, ?>) {
        return true;
      }
    }
    return false;
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
