/**
 * What the CDC relay does because of how Debezium's embedded engine, connectors and JDBC stores
 * behave: the engine's settings, the classes Debezium instantiates by name (the offset store, the
 * creation-time converter, the password-less driver), and the relay's answers to the engine's stop
 * and silence. One concern per class; each class comment states the invariant it keeps and the
 * Debezium behaviour it answers. Not API.
 */
package dev.outboxrelay.relay.cdc.internal.debezium;
