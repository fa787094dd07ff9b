package dev.outboxrelay.spring;

import dev.outboxrelay.dedup.BatchOutcome;
import dev.outboxrelay.dedup.DedupBatchItemException;
import dev.outboxrelay.dedup.DedupHandlerException;
import dev.outboxrelay.dedup.KafkaDedup;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.kafka.listener.BatchListenerFailedException;

/**
 * A {@link Deduplicated} batch listener ({@code List<ConsumerRecord>} parameter) through {@link
 * SpringDedup#handleBatch}: the method is called with the batch's new records only, and a failure
 * becomes a {@link BatchListenerFailedException} at the failed record's index in the container's
 * list, so Spring Kafka's error handler commits the offsets before it and retries from it. The only
 * class of the starter that links spring-kafka: loaded for batch listeners alone.
 */
final class DeduplicatedBatch {
  private DeduplicatedBatch() {}

  static Object invoke(MethodInvocation invocation, int parameter, SpringDedup dedup, String group)
      throws Throwable {
    List<ConsumerRecord<?, ?>> records = records(invocation, parameter);
    AtomicReference<Object> result = new AtomicReference<>();
    BatchOutcome outcome =
        dedup.handleBatch(
            group,
            records,
            KafkaDedup::identity,
            fresh -> result.set(call(invocation, parameter, fresh)));
    if (outcome.complete()) {
      return result.get();
    }
    RuntimeException failure = outcome.failure();
    Throwable cause =
        failure instanceof DedupHandlerException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    Method m = invocation.getMethod();
    throw new BatchListenerFailedException(
        "@Deduplicated "
            + m.getDeclaringClass().getSimpleName()
            + "."
            + m.getName()
            + ": record "
            + outcome.committed()
            + " of the batch failed (the records before it committed)",
        cause,
        outcome.committed());
  }

  @SuppressWarnings("unchecked")
  private static List<ConsumerRecord<?, ?>> records(MethodInvocation invocation, int parameter) {
    Object arg = invocation.getArguments()[parameter];
    return arg == null ? List.of() : List.copyOf((List<ConsumerRecord<?, ?>>) arg);
  }

  /** Calls the method with {@code fresh} in place of the batch: one clone of the call per part. */
  private static Object call(
      MethodInvocation invocation, int parameter, List<ConsumerRecord<?, ?>> fresh)
      throws Exception {
    Object[] args = invocation.getArguments().clone();
    args[parameter] = List.copyOf(fresh);
    try {
      return ((ProxyMethodInvocation) invocation).invocableClone(args).proceed();
    } catch (BatchListenerFailedException e) {
      throw new DedupBatchItemException(index(fresh, e), e.getCause() != null ? e.getCause() : e);
    } catch (Exception | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new UndeclaredThrowableException(t);
    }
  }

  /** The failed record's index in the list the method was given, or -1 if it is not in it. */
  private static int index(List<ConsumerRecord<?, ?>> given, BatchListenerFailedException e) {
    ConsumerRecord<?, ?> failed = e.getRecord();
    if (failed == null) {
      return e.getIndex();
    }
    for (int i = 0; i < given.size(); i++) {
      if (given.get(i) == failed) {
        return i;
      }
    }
    return given.indexOf(failed);
  }
}
