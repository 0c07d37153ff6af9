/**
 * Kafka Streams state stores on leveldbj: {@link org.leveldbj.kafka.streams.LeveldbStores}
 * supplies persistent key-value and timestamped key-value stores, window stores
 * ({@link org.leveldbj.kafka.streams.LeveldbWindowStore}) and session stores
 * ({@link org.leveldbj.kafka.streams.LeveldbSessionStore}) that take the place of Kafka's RocksDB
 * stores, in pure Java; {@link org.leveldbj.kafka.streams.LeveldbConfigSetter} sets
 * their options. Each store is one database under the task's state directory, restored from its
 * changelog topic like any Kafka Streams store.
 */
package org.leveldbj.kafka.streams;
