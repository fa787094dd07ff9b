package dev.outboxrelay.dedup;

import java.sql.Connection;
import java.util.List;
import java.util.Objects;

/**
 * {@link DedupBatchHandler#each}: a per-message handler run for each message in order, a failure
 * naming its message. A type of its own so that the batch can give each message its own span.
 */
record EachHandler<M>(DedupHandler<M> handler) implements DedupBatchHandler<M> {
  EachHandler {
    Objects.requireNonNull(handler, "handler");
  }

  @Override
  public void handle(Connection connection, List<M> messages) throws Exception {
    for (int i = 0; i < messages.size(); i++) {
      try {
        handler.handle(connection, messages.get(i));
      } catch (Exception e) {
        throw new DedupBatchItemException(i, e);
      }
    }
  }
}
