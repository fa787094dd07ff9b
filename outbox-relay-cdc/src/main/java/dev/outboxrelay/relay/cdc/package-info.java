/** See the module README. */
package dev.outboxrelay.relay.cdc;
