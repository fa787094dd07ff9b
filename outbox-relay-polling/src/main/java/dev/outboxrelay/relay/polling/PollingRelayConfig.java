package dev.outboxrelay.relay.polling;

import dev.outboxrelay.relay.engine.EngineSettings;
import dev.outboxrelay.relay.engine.RelayCore;
import java.time.Duration;

/** The validated settings of one polling relay: the shared ones in {@code core}, and its own. */
record PollingRelayConfig(
    RelayCore core,
    int inFlightBatches,
    Duration leaseDuration,
    boolean strictOrder,
    boolean listenNotify)
    implements EngineSettings {}
