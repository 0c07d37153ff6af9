package org.iq80.leveldb;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReadWriteOptionsTest {

    @Test
    void readOptionsDefaultsMatchVersion012() {
        ReadOptions read = new ReadOptions();
        assertTrue(read.fillCache());
        assertFalse(read.verifyChecksums());
        assertNull(read.snapshot());
    }

    @Test
    void readOptionsSettersStoreAndChain() {
        ReadOptions read = new ReadOptions();
        Snapshot snapshot = () -> { };
        assertSame(read, read.fillCache(false).verifyChecksums(true).snapshot(snapshot));
        assertFalse(read.fillCache());
        assertTrue(read.verifyChecksums());
        assertSame(snapshot, read.snapshot());
        assertNull(read.snapshot(null).snapshot());
    }

    @Test
    void writeOptionsDefaultsMatchVersion012() {
        WriteOptions write = new WriteOptions();
        assertFalse(write.sync());
        assertFalse(write.snapshot());
    }

    @Test
    void writeOptionsSettersStoreAndChain() {
        WriteOptions write = new WriteOptions();
        assertSame(write, write.sync(true).snapshot(true));
        assertTrue(write.sync());
        assertTrue(write.snapshot());
        write.sync(false).snapshot(false);
        assertFalse(write.sync());
        assertFalse(write.snapshot());
    }
}
