/**
 * Kafka Streams state stores on leveldbj: {@link org.leveldbj.kafka.streams.LeveldbStores}
 * supplies persistent key-value and timestamped key-value stores, window stores
 * ({@link org.leveldbj.kafka.streams.LeveldbWindowStore}) and session stores
 * ({@link org.leveldbj.kafka.streams.LeveldbSessionStore}) that take the place of Kafka's RocksDB
 * stores, in pure Java; {@link org.leveldbj.kafka.streams.LeveldbConfigSetter} sets
 * their options. Each store is one database under the task's state directory, restored from its
 * changelog topic like any Kafka Streams store.
 *
 * <p>Versioned key-value stores (KIP-889):
 * {@link org.leveldbj.kafka.streams.LeveldbStores#persistentVersionedKeyValueStore(String, java.time.Duration)}
 * supplies {@link org.leveldbj.kafka.streams.LeveldbVersionedKeyValueStore}, in place of Kafka's
 * RocksDB versioned store.
 *
 * <p>On disk, each store's directory is a plain LevelDB database (the byte layout is in
 * {@code StoreDatabase}'s documentation): C++ LevelDB 1.23 and goleveldb open it, with their
 * strictest checks, and read exactly the entries leveldbj reads, whatever the store type, after
 * expiry and compactions (they ignore the tables' {@code leveldbj.stats} meta blocks); a record
 * they add in a store's layout is read by the store when it reopens the directory, its committed
 * offsets untouched. Commits flush nothing; after a crash a store holds a state from which
 * restoring its changelog after its committed offset gives exactly the state Kafka's own store of
 * the same type would hold (under exactly-once, a store that may hold uncommitted writes is
 * reported corrupt, so that Kafka Streams rebuilds it).
 */
package org.leveldbj.kafka.streams;
