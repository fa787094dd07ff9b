/** Implementation of consumer-dedup; not API, may change without notice. */
package dev.outboxrelay.dedup.internal;
