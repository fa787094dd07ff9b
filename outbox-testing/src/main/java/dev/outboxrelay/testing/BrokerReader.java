package dev.outboxrelay.testing;

import java.util.List;

/** Reads what a broker holds, for contract suites; one implementation per broker. */
public interface BrokerReader extends AutoCloseable {

  /** Every message on the topic so far, in per-key (partition or queue) order. */
  List<ReceivedMessage> readAll(String topic);

  @Override
  void close();
}
