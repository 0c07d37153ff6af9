package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.iq80.leveldb.CompactionFilter;
import org.iq80.leveldb.DBIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * StoreDatabase's hooks for segmented stores: values kept beside the offsets (written at each
 * commit and at close, never between), and compacting a range of the data with the store's
 * compaction filter, which never sees the metadata removed.
 */
class StoreDatabaseKeptTest {
    @TempDir
    Path stateDir;

    @Test
    void keptValuesAreWrittenAtCommitAndAtCloseOnly() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        StoreDatabase db = StoreDatabase.open("kept", context.getStateStoreContext(), options -> { });
        AtomicInteger value = new AtomicInteger(1);
        db.keepAtCommit("n", () -> new byte[] {(byte) value.get()});
        assertNull(db.kept("n"), "nothing before the first commit");
        db.commit(Map.of());
        assertArrayEquals(new byte[] {1}, db.kept("n"));
        value.set(2);
        assertArrayEquals(new byte[] {1}, db.kept("n"), "not written between commits");
        db.close();
        db = StoreDatabase.open("kept", context.getStateStoreContext(), options -> { });
        assertArrayEquals(new byte[] {2}, db.kept("n"), "written at close");
        db.close();
    }

    @Test
    void compactDataRunsTheFilterOverTheRangeAndKeepsTheMetadata() throws IOException {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        CompactionFilter dropAll = new CompactionFilter() {
            @Override
            public String name() {
                return "test.dropData";
            }

            @Override
            public Decision filter(int level, byte[] key, byte[] value) {
                return key[0] == StoreDatabase.DATA && key[1] == 'a' ? Decision.REMOVE : Decision.KEEP;
            }
        };
        StoreDatabase db = StoreDatabase.open("compact", context.getStateStoreContext(),
                options -> options.compactionFilter(dropAll));
        for (int i = 0; i < 100; i++) {
            db.put(("a" + i).getBytes(), new byte[] {1});
            db.put(("b" + i).getBytes(), new byte[] {1});
        }
        db.commit(Map.of(new org.apache.kafka.common.TopicPartition("t", 0), 5L));
        db.compactData(new byte[] {'a'}, new byte[] {'b'});
        int left = 0;
        try (DBIterator it = db.iterator()) {
            it.seekToFirst();
            while (it.hasNext()) {
                assertEquals('b', it.next().getKey()[0]);
                left++;
            }
        }
        assertEquals(100, left, "the filtered range is gone, the rest is kept");
        assertEquals(5L, db.committedOffset(new org.apache.kafka.common.TopicPartition("t", 0)), "metadata kept");
        db.close();
    }
}
