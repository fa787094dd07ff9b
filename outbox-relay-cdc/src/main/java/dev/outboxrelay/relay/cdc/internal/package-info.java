/** Internals of the CDC relay that Debezium instantiates by class name; not API. */
package dev.outboxrelay.relay.cdc.internal;
