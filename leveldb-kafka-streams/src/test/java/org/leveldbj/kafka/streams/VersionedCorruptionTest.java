package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged entries give a ProcessorStateException naming the store and what is wrong, never a crash. */
class VersionedCorruptionTest {
    @TempDir
    Path stateDir;

    @Test
    void aDamagedStreamTimeEntryFailsTheOpenAndLeavesTheDatabaseClosed() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        StoreDatabase db = StoreDatabase.open("damaged", context.getStateStoreContext(), o -> { });
        db.keepAtCommit(VersionExpiryFilter.STREAM_TIME, () -> new byte[3]);
        db.close();
        ProcessorStateException e = assertThrows(ProcessorStateException.class,
                () -> StoreFixture.init(new LeveldbVersionedKeyValueStore("damaged", 10), context));
        assertTrue(e.getMessage().contains("store damaged: corrupt stream time entry") && e.getMessage().contains("3 bytes"),
                e.getMessage());
        db = StoreDatabase.open("damaged", context.getStateStoreContext(), o -> { }); // not left locked
        db.close();
    }

    @Test
    void aDamagedVersionEntryFailsTheReadThatMeetsIt() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbVersionedKeyValueStore store = StoreFixture.init(new LeveldbVersionedKeyValueStore("damaged", 10), context);
        Bytes k = Bytes.wrap(new byte[] {'k'});
        store.put(k, new byte[] {1}, 5);
        store.database().put(VersionLayout.latestKey(VersionLayout.group(k.get())), new byte[] {9, 9});
        ProcessorStateException e = assertThrows(ProcessorStateException.class, () -> store.get(k));
        assertEquals("store damaged: corrupt version entry: 2 bytes, fewer than its 9-byte header", e.getMessage());
        store.database().put(VersionLayout.latestKey(VersionLayout.group(k.get())), new byte[] {7, 0, 0, 0, 0, 0, 0, 0, 5});
        e = assertThrows(ProcessorStateException.class, () -> store.put(k, new byte[] {2}, 6));
        assertEquals("store damaged: corrupt version entry: unknown kind 7", e.getMessage());
        store.close();
    }
}
