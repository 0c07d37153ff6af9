package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.util.Bytes;

/** A batch's records enter the memtable numbered consecutively from the batch's sequence. */
class MemTableInserterTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void batchesAreNumberedConsecutively() {
        MemTable mem = new MemTable(BytewiseComparator.INSTANCE);
        try (WriteBatchImpl batch = new WriteBatchImpl()) {
            batch.put(bytes("a"), bytes("1")).delete(bytes("b")).put(bytes("c"), bytes("3"));
            batch.setSequence(100);
            assertEquals(103, new MemTableInserter().insert(batch, mem));
        }
        try (SortedIterator it = mem.iterator()) {
            it.seekToFirst();
            assertArrayEquals(InternalKeys.encode(bytes("a"), 100, ValueType.VALUE), Bytes.toArray(it.key()));
            assertArrayEquals(bytes("1"), Bytes.toArray(it.value()));
            it.next();
            assertArrayEquals(InternalKeys.encode(bytes("b"), 101, ValueType.DELETION), Bytes.toArray(it.key()));
            assertEquals(0, it.value().remaining());
            it.next();
            assertArrayEquals(InternalKeys.encode(bytes("c"), 102, ValueType.VALUE), Bytes.toArray(it.key()));
            it.next();
            assertFalse(it.valid());
        }
        mem.unref();
    }

    @Test
    void aReleasedMemtableRefusesRecords() {
        MemTable mem = new MemTable(BytewiseComparator.INSTANCE);
        mem.unref();
        try (WriteBatchImpl batch = new WriteBatchImpl()) {
            batch.put(bytes("a"), bytes("1"));
            assertThrows(IllegalStateException.class, () -> new MemTableInserter().insert(batch, mem));
        }
    }
}
