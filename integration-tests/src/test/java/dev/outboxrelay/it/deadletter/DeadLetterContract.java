package dev.outboxrelay.it.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.NonRetriablePublishException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.core.RelayState.Phase;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.relay.engine.ParkedKey;
import dev.outboxrelay.relay.engine.Retention;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.BrokerReader;
import dev.outboxrelay.testing.FaultyPublisher;
import dev.outboxrelay.testing.ReceivedMessage;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The polling relay's dead-letter topic against a real broker and database: a parked message is
 * copied there once with its reason, its key stays parked, a restarted relay does not copy it
 * again, and the operator's unpark or discard lets the held messages through in order.
 */
public abstract class DeadLetterContract {
  /** The broker's limit in these tests; twice this size is a poison message. */
  static final int MAX_MESSAGE_SIZE = 256 * 1024;

  private final Outbox outbox = Outbox.builder().maxPayloadBytes(4 * MAX_MESSAGE_SIZE).build();
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final AtomicInteger copies = new AtomicInteger();
  private final AtomicInteger copyFailures = new AtomicInteger();
  private HikariDataSource dataSource;
  private TopicTemplate topics;
  private String topic;
  private String deadLetters;

  protected abstract DatabaseServer database();

  /** A publisher that refuses messages over {@link #MAX_MESSAGE_SIZE} for good. */
  protected abstract Publisher newPublisher(TopicTemplate topics);

  protected abstract void createTopic(String topic);

  protected abstract BrokerReader reader();

  @BeforeEach
  void freshDatabaseAndTopics() throws Exception {
    dataSource = database().dataSource(database().createDatabase(), 8);
    try (Connection c = dataSource.getConnection()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
    }
    String prefix = "dlq-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    topic = prefix + "order";
    topics = TopicTemplate.of(prefix + TopicTemplate.PLACEHOLDER);
    deadLetters = prefix + "dead-letters";
    createTopic(topic);
    createTopic(deadLetters);
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    dataSource.close();
  }

  @Test
  void anOversizedMessageIsDeadLetteredOnceWithoutItsPayloadAndItsKeyStaysParked()
      throws Exception {
    Relay relay = relay("dlq-1", newPublisher(topics));
    OutboxMessage before = message("poisoned", "{\"n\":0}");
    OutboxMessage poison =
        message("poisoned", "x").toBuilder().payload(new byte[2 * MAX_MESSAGE_SIZE]).build();
    OutboxMessage after = message("poisoned", "{\"n\":2}");
    commit(List.of(before, poison, after, message("healthy", "{}")));

    await().atMost(Duration.ofSeconds(30)).until(() -> deadLettered().size() == 1);
    ReceivedMessage copy = deadLettered().get(0);
    assertThat(copy.id()).isEqualTo(poison.id());
    assertThat(copy.key()).isEqualTo("poisoned");
    assertThat(copy.headers())
        .containsEntry(MessageContract.HEADER_ORIGINAL_TOPIC, topic)
        .containsEntry(
            MessageContract.HEADER_PAYLOAD_DROPPED, Integer.toString(2 * MAX_MESSAGE_SIZE))
        .containsKeys(MessageContract.HEADER_PARKED_REASON, MessageContract.HEADER_PARKED_AT);
    assertThat(copy.headers().get(MessageContract.HEADER_PARKED_REASON))
        .contains(poison.id().toString());
    Instant parkedAt = Instant.parse(copy.headers().get(MessageContract.HEADER_PARKED_AT));
    assertThat(copy.payloadAsString()).isEqualTo("payload dropped");

    // The copy is recorded once the broker acknowledged it: the operator sees it right after.
    await().atMost(Duration.ofSeconds(10)).until(this::recorded);
    ParkedKey parked = admin().parked().get(0);
    assertThat(parked.aggregateId()).isEqualTo("poisoned");
    assertThat(parked.messageId()).isEqualTo(poison.id());
    assertThat(parked.parkedAt()).isEqualTo(parkedAt);
    assertThat(parked.deadLettered()).as("the operator sees the copy").isPresent();
    assertThat(keyOnTopic("poisoned")).containsExactly(before.id());
    await().atMost(Duration.ofSeconds(30)).until(() -> keyOnTopic("healthy").size() == 1);

    // A restarted relay (and its successor after a crash) finds the copy recorded: no second one.
    relay.close();
    Relay restarted = relay("dlq-2", newPublisher(topics));
    await().atMost(Duration.ofSeconds(30)).until(() -> restarted.state().phase() == Phase.ACTIVE);
    await()
        .during(Duration.ofSeconds(6)) // three sweeps of the restarted relay
        .atMost(Duration.ofSeconds(10))
        .until(() -> deadLettered().size() == 1);
    assertThat(copies).as("copies sent over both runs").hasValue(1);
    assertThat(admin().parked()).extracting(ParkedKey::aggregateId).containsExactly("poisoned");

    assertThat(admin().discardParked("poisoned", Retention.deleteImmediately(), "it")).isTrue();
    await().atMost(Duration.ofSeconds(30)).until(() -> keyOnTopic("poisoned").size() == 2);
    assertThat(keyOnTopic("poisoned")).containsExactly(before.id(), after.id());
    assertThat(deadLettered()).hasSize(1);
  }

  @Test
  void aRejectedMessageIsDeadLetteredWholeAndUnparkDeliversTheKeyInOrder() throws Exception {
    AtomicBoolean rejecting = new AtomicBoolean(true);
    AtomicInteger failCopies = new AtomicInteger(2);
    OutboxMessage first = message("rejected", "{\"n\":0}");
    OutboxMessage refused = message("rejected", "{\"n\":1}");
    List<OutboxMessage> held =
        List.of(message("rejected", "{\"n\":2}"), message("rejected", "{\"n\":3}"));
    Publisher faulty =
        new FaultyPublisher(
            newPublisher(topics),
            m ->
                rejecting.get() && m.id().equals(refused.id())
                    ? new NonRetriablePublishException("injected rejection of " + m.id(), null)
                    : null);
    relay("dlq-3", new FailingCopies(faulty, failCopies));
    List<OutboxMessage> all = new ArrayList<>(List.of(first, refused));
    all.addAll(held);
    commit(all);

    await().atMost(Duration.ofSeconds(30)).until(() -> deadLettered().size() == 1);
    assertThat(copyFailures).as("failed copies retried, key still parked").hasValue(2);
    ReceivedMessage copy = deadLettered().get(0);
    assertThat(copy.id()).isEqualTo(refused.id());
    assertThat(copy.payloadAsString()).isEqualTo("{\"n\":1}");
    assertThat(copy.headers())
        .containsEntry(
            MessageContract.HEADER_PARKED_REASON, "injected rejection of " + refused.id())
        .doesNotContainKey(MessageContract.HEADER_PAYLOAD_DROPPED);
    await().atMost(Duration.ofSeconds(10)).until(this::recorded);
    assertThat(admin().parked())
        .singleElement()
        .satisfies(p -> assertThat(p.deadLettered()).isPresent());
    assertThat(keyOnTopic("rejected")).containsExactly(first.id());

    rejecting.set(false);
    assertThat(admin().unpark("rejected")).isTrue();
    await().atMost(Duration.ofSeconds(30)).until(() -> keyOnTopic("rejected").size() == 4);
    assertThat(keyOnTopic("rejected"))
        .containsExactly(first.id(), refused.id(), held.get(0).id(), held.get(1).id());
    assertThat(admin().parked()).isEmpty();
    assertThat(deadLettered()).hasSize(1);
  }

  /**
   * Builds (not starts) the relay under test with this dead-letter topic: the polling relay here, a
   * subclass may build another.
   */
  protected Relay buildRelay(
      String name,
      HikariDataSource dataSource,
      Publisher publisher,
      String deadLetterTopic,
      RelayListener listener) {
    return PollingRelay.builder()
        .name(name)
        .dataSource(dataSource)
        .publisher(publisher)
        .deadLetterTopic(deadLetterTopic)
        .leaseDuration(Duration.ofSeconds(3))
        .pollInterval(Duration.ofMillis(100))
        .backoffInitial(Duration.ofMillis(200))
        .backoffMax(Duration.ofSeconds(2))
        .listener(listener)
        .build();
  }

  private Relay relay(String name, Publisher publisher) {
    closeables.add(publisher);
    Relay relay =
        buildRelay(
            name,
            dataSource,
            publisher,
            deadLetters,
            new RelayListener() {
              @Override
              public void onDeadLettered(String key, OutboxMessage m, String topic) {
                copies.incrementAndGet();
              }

              @Override
              public void onDeadLetterFailed(
                  String key,
                  dev.outboxrelay.core.PublishException failure,
                  int attempt,
                  Duration delay) {
                copyFailures.incrementAndGet();
              }
            });
    closeables.add(relay);
    return relay.start();
  }

  private OutboxAdmin admin() {
    return OutboxAdmin.of(dataSource, OutboxTable.defaults());
  }

  private static OutboxMessage message(String key, String payload) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(key)
        .type("OrderChanged")
        .payload(payload)
        .build();
  }

  private void commit(List<OutboxMessage> messages) throws Exception {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      outbox.saveAll(c, messages);
      c.commit();
    }
  }

  /** The one parked key's copy is recorded in the table. */
  private boolean recorded() {
    List<ParkedKey> parked = admin().parked();
    return !parked.isEmpty() && parked.stream().allMatch(p -> p.deadLettered().isPresent());
  }

  private List<ReceivedMessage> deadLettered() {
    return reader().readAll(deadLetters);
  }

  private List<UUID> keyOnTopic(String key) {
    return reader().readAll(topic).stream()
        .filter(r -> r.key().equals(key))
        .map(ReceivedMessage::id)
        .toList();
  }
}
