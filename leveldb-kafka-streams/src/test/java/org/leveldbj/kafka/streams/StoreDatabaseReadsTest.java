package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * StoreDatabase's store-owned metadata, bounded data iterators, readable batches and reading
 * restoration.
 */
class StoreDatabaseReadsTest {
    @TempDir
    Path stateDir;

    private static List<String> keys(DataIterator it) throws IOException {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                out.add(new String(it.next().getKey()));
            }
        }
        return out;
    }

    @Test
    void storeMetadataSurvivesAReopenAndStaysOutOfTheData() throws IOException {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        StoreDatabase db = StoreDatabase.open("meta", context.getStateStoreContext(), o -> { });
        assertNull(db.kept("x"));
        db.keepAtCommit("x", () -> new byte[] {7});
        db.put("k".getBytes(), new byte[] {1});
        db.close();
        db = StoreDatabase.open("meta", context.getStateStoreContext(), o -> { });
        assertArrayEquals(new byte[] {7}, db.kept("x"));
        DataIterator all = db.iterator();
        all.seekToFirst();
        assertEquals(List.of("k"), keys(all), "metadata is not data");
        db.close();
    }

    @Test
    void aBoundedIteratorShowsOnlyItsRange() throws IOException {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        StoreDatabase db = StoreDatabase.open("bounded", context.getStateStoreContext(), o -> { });
        for (String k : new String[] {"a", "b", "ba", "c"}) {
            db.put(k.getBytes(), new byte[0]);
        }
        assertEquals(List.of("b", "ba"), keys(db.iterator("b".getBytes(), "c".getBytes())));
        DataIterator backwards = db.iterator("a".getBytes(), "bz".getBytes());
        backwards.seekToLast();
        assertEquals("ba", new String(backwards.peekNext().getKey()));
        backwards.close();
        db.close();
    }

    @Test
    void aReadableBatchReadsItsOwnWritesAndAppliesThemAtomically() throws IOException {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        StoreDatabase db = StoreDatabase.open("readable", context.getStateStoreContext(), o -> { });
        db.put("a".getBytes(), new byte[] {1});
        db.put("c".getBytes(), new byte[] {3});
        try (StoreDatabase.ReadableBatch batch = db.readableBatch()) {
            batch.put("b".getBytes(), new byte[] {2});
            batch.put("c".getBytes(), null);
            assertArrayEquals(new byte[] {2}, batch.get("b".getBytes()));
            assertNull(batch.get("c".getBytes()), "deleted in the batch");
            assertArrayEquals(new byte[] {1}, batch.get("a".getBytes()), "from the database");
            DataIterator it = batch.iterator("a".getBytes(), "z".getBytes());
            it.seek("a".getBytes());
            assertEquals(List.of("a", "b"), keys(it));
            assertNull(db.get("b".getBytes()), "not applied yet");
            batch.write();
        }
        assertArrayEquals(new byte[] {2}, db.get("b".getBytes()));
        assertNull(db.get("c".getBytes()));
        db.close();
    }

    @Test
    void aReadingRestoreSkipsWhatTheMapperSkipsAndReadsEarlierWrites() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        StoreDatabase db = StoreDatabase.open("restore", context.getStateStoreContext(), o -> { });
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            records.add(new ConsumerRecord<>("t", 0, i, i, TimestampType.CREATE_TIME, 0, 0, new byte[] {(byte) i},
                    new byte[] {(byte) i}, new RecordHeaders(), java.util.Optional.empty()));
        }
        db.restoreReading(records, new StoreDatabase.ReadingRestoreMapper() {
            @Override
            public boolean skip(ConsumerRecord<byte[], byte[]> record) {
                return record.offset() == 2;
            }

            @Override
            public void apply(ConsumerRecord<byte[], byte[]> record, StoreDatabase.ReadableBatch batch) {
                byte[] previous = record.offset() == 0 ? null : batch.get(new byte[] {(byte) (record.offset() - 1)});
                batch.put(record.key(), previous == null ? record.value() : new byte[] {(byte) (previous[0] + 10)});
            }
        });
        assertArrayEquals(new byte[] {0}, db.get(new byte[] {0}));
        assertArrayEquals(new byte[] {10}, db.get(new byte[] {1}), "read the batch's earlier write");
        assertNull(db.get(new byte[] {2}), "skipped");
        assertArrayEquals(new byte[] {3}, db.get(new byte[] {3}));
        db.close();
    }
}
