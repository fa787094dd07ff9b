/** Internals of the CDC relay shared by its packages; not API. */
package dev.outboxrelay.relay.cdc.internal;
