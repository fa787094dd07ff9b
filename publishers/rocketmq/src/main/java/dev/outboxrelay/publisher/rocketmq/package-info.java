/** See the module README. */
package dev.outboxrelay.publisher.rocketmq;
