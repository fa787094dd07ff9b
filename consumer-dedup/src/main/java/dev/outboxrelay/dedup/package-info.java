/** See the module README. */
package dev.outboxrelay.dedup;
