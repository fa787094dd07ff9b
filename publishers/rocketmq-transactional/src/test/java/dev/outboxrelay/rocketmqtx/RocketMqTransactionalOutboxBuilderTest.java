package dev.outboxrelay.rocketmqtx;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.TopicTemplate;
import java.io.PrintWriter;
import java.sql.Connection;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** Settings are checked before anything starts, naming the setting and the bad value. */
class RocketMqTransactionalOutboxBuilderTest {

  @Test
  void aMissingNameServerOrDataSourceIsNamed() {
    assertThatThrownBy(() -> RocketMqTransactionalOutbox.builder().dataSource(NO_DB).build())
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage("namesrvAddr must be set, but was null");
    assertThatThrownBy(
            () -> RocketMqTransactionalOutbox.builder().namesrvAddr("127.0.0.1:9876").build())
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage("dataSource must be set, but was null");
  }

  @Test
  void anInvalidGroupOrTemplateIsNamedWithItsValue() {
    assertThatThrownBy(() -> RocketMqTransactionalOutbox.builder().producerGroup("a.b"))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageStartingWith("producerGroup must be at most 255 characters")
        .hasMessageEndingWith("but was 'a.b'");
    assertThatThrownBy(
            () -> RocketMqTransactionalOutbox.builder().topicTemplate(TopicTemplate.of("a.b")))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageStartingWith("topicTemplate must give valid topic names");
  }

  @Test
  void anUnknownProducerSettingIsRefusedAtBuildWithoutItsValue() {
    assertThatThrownBy(
            () ->
                RocketMqTransactionalOutbox.builder()
                    .namesrvAddr("127.0.0.1:9876")
                    .dataSource(NO_DB)
                    .producerProperty("secertKey", "s3cret")
                    .build())
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage("secertKey is not a setting of RocketMQ's DefaultMQProducer");
  }

  /** Never connected to: the builder fails before it would be. */
  private static final DataSource NO_DB =
      new DataSource() {
        @Override
        public Connection getConnection() {
          throw new UnsupportedOperationException();
        }

        @Override
        public Connection getConnection(String user, String password) {
          throw new UnsupportedOperationException();
        }

        @Override
        public PrintWriter getLogWriter() {
          return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {}

        @Override
        public void setLoginTimeout(int seconds) {}

        @Override
        public int getLoginTimeout() {
          return 0;
        }

        @Override
        public Logger getParentLogger() {
          return Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> iface) {
          throw new UnsupportedOperationException();
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
          return false;
        }
      };
}
