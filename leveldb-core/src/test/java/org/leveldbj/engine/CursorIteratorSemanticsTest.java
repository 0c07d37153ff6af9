package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.engine.VersionedEntries.b;
import static org.leveldbj.engine.VersionedEntries.s;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicInteger;
import org.iq80.leveldb.DBException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.leveldbj.comparator.BytewiseComparator;

/** Pins leveldbjni's cursor semantics, call by call, as the DBIterator documentation states them. */
class CursorIteratorSemanticsTest {
    private final AtomicInteger released = new AtomicInteger();

    private CursorIterator cursor(VersionedEntries v, long snapshot) {
        DbIterator entries = new DbIterator(v.internalIterator(), BytewiseComparator.INSTANCE, snapshot,
                DbIterator.ReadSampler.NONE);
        return new CursorIterator(entries, released::incrementAndGet, () -> true, "a test list");
    }

    private CursorIterator cursor(String... keys) {
        VersionedEntries v = new VersionedEntries();
        for (String k : keys) {
            v.put(k, "v" + k);
        }
        return cursor(v, v.lastSequence());
    }

    private static String key(Map.Entry<byte[], byte[]> e) {
        return s(e.getKey());
    }

    private static void assertNoSuchElement(Executable call) {
        assertThrows(NoSuchElementException.class, call);
    }

    @Test
    void theWorkedExampleOfTheDocumentation() {
        try (CursorIterator it = cursor("a", "b", "c")) {
            it.seekToFirst();
            assertTrue(it.hasNext());
            assertFalse(it.hasPrev());
            assertEquals("a", key(it.peekNext()));
            assertEquals("a", key(it.next()));
            assertTrue(it.hasPrev());
            assertEquals("a", key(it.peekPrev()));
            assertEquals("b", key(it.peekNext()));
            assertEquals("b", key(it.next()));
            assertEquals("c", key(it.peekNext()));
            assertEquals("b", key(it.prev()));
            assertEquals("b", key(it.peekNext()));
            assertEquals("b", key(it.next()));
            assertEquals("c", key(it.next()));
            assertFalse(it.hasNext());
            assertFalse(it.hasPrev());
            it.seekToLast();
            assertTrue(it.hasNext());
            assertEquals("c", key(it.peekNext()));
            assertTrue(it.hasPrev());
            assertEquals("b", key(it.prev()));
            assertEquals("b", key(it.peekNext()));
            assertEquals("a", key(it.prev()));
            assertFalse(it.hasPrev());
            assertEquals("a", key(it.peekNext()));
            it.seek(b("bb"));
            assertEquals("c", key(it.peekNext()));
        }
    }

    @Test
    void theBackwardScanOfTheDocumentation() {
        try (CursorIterator it = cursor("a", "b", "c", "d")) {
            List<String> seen = new ArrayList<>();
            it.seekToLast();
            if (it.hasNext()) {
                seen.add(key(it.peekNext()));
                while (it.hasPrev()) {
                    seen.add(key(it.prev()));
                }
            }
            assertEquals(List.of("d", "c", "b", "a"), seen);
            assertEquals("a", key(it.peekNext()), "the cursor ends on the first entry");
            seen.clear();
            it.seekToLast();
            for (Iterator<Map.Entry<byte[], byte[]>> back = it.descending(); back.hasNext(); ) {
                seen.add(key(back.next()));
            }
            assertEquals(List.of("d", "c", "b", "a"), seen);
            it.seek(b("z"));
            assertFalse(it.descending().hasNext(), "nothing to walk from past the end");
        }
    }

    @Test
    void aNewIteratorStartsOnTheFirstEntry() {
        try (CursorIterator it = cursor("a", "b")) {
            assertTrue(it.hasNext());
            assertEquals("a", key(it.next()));
        }
        try (CursorIterator it = cursor("a", "b")) {
            assertFalse(it.hasPrev());
            assertEquals("a", key(it.peekNext()));
        }
        try (CursorIterator it = cursor("a", "b")) {
            assertNoSuchElement(it::prev);
            assertNoSuchElement(it::peekPrev);
            assertEquals("a", key(it.next()));
        }
        try (CursorIterator it = cursor("a", "b")) {
            it.seek(b("b"));
            assertEquals("b", key(it.next()));
        }
    }

    @Test
    void forwardScanWithHasNext() {
        try (CursorIterator it = cursor("a", "b", "c")) {
            List<String> seen = new ArrayList<>();
            while (it.hasNext()) {
                seen.add(key(it.next()));
            }
            assertEquals(List.of("a", "b", "c"), seen);
            assertNoSuchElement(it::next);
            assertNoSuchElement(it::peekNext);
            assertNoSuchElement(it::prev);
            assertNoSuchElement(it::peekPrev);
            assertFalse(it.hasNext(), "failed calls leave the cursor past the end");
        }
    }

    @Test
    void anEmptyDatabase() {
        try (CursorIterator it = cursor()) {
            assertFalse(it.hasNext());
            assertFalse(it.hasPrev());
            assertNoSuchElement(it::next);
            assertNoSuchElement(it::peekNext);
            assertNoSuchElement(it::prev);
            assertNoSuchElement(it::peekPrev);
            it.seekToLast();
            assertFalse(it.hasNext());
            assertFalse(it.hasPrev());
            it.seek(b("a"));
            assertFalse(it.hasNext());
            it.seekToFirst();
            assertFalse(it.hasNext());
        }
    }

    @Test
    void aSingleEntry() {
        try (CursorIterator it = cursor("k")) {
            assertTrue(it.hasNext());
            assertFalse(it.hasPrev());
            it.seekToLast();
            assertEquals("k", key(it.peekNext()));
            assertFalse(it.hasPrev());
            assertNoSuchElement(it::prev);
            assertEquals("k", key(it.peekNext()), "a failed prev() leaves the cursor on the entry");
            assertEquals("k", key(it.next()));
            assertFalse(it.hasNext());
            assertFalse(it.hasPrev());
            it.seek(b("k"));
            assertEquals("k", key(it.peekNext()));
            it.seek(b("j"));
            assertEquals("k", key(it.peekNext()));
        }
    }

    @Test
    void seekPastTheEndAndBetweenKeys() {
        try (CursorIterator it = cursor("b", "d")) {
            it.seek(b("e"));
            assertFalse(it.hasNext());
            assertFalse(it.hasPrev());
            assertNoSuchElement(it::peekNext);
            it.seek(b("c"));
            assertEquals("d", key(it.peekNext()));
            assertEquals("b", key(it.peekPrev()));
            assertEquals("d", key(it.peekNext()), "peekPrev() does not move the cursor");
            it.seek(b(""));
            assertEquals("b", key(it.peekNext()));
            assertFalse(it.hasPrev());
        }
    }

    @Test
    void directionSwitchesAnywhere() {
        try (CursorIterator it = cursor("a", "b", "c", "d", "e")) {
            it.seek(b("c"));
            assertEquals("b", key(it.peekPrev()));
            assertEquals("b", key(it.peekPrev()));
            assertTrue(it.hasPrev());
            assertEquals("c", key(it.next()));
            assertEquals("c", key(it.prev()));
            assertEquals("b", key(it.prev()));
            assertTrue(it.hasNext());
            assertEquals("b", key(it.next()));
            assertTrue(it.hasPrev());
            assertEquals("c", key(it.next()));
            assertTrue(it.hasPrev());
            assertEquals("d", key(it.next()));
            assertEquals("e", key(it.next()));
            assertFalse(it.hasPrev());
            it.seekToLast();
            assertEquals("d", key(it.peekPrev()));
            assertEquals("e", key(it.next()));
            assertFalse(it.hasNext());
        }
    }

    @Test
    void olderVersionsAndDeletionsStayHidden() {
        VersionedEntries v = new VersionedEntries()
                .put("a", "1").put("b", "1").put("c", "1").put("b", "2").delete("a").put("d", "1").delete("c");
        long before = 4; // a=1, b=2, c=1
        try (CursorIterator it = cursor(v, v.lastSequence())) {
            assertEquals("b", key(it.peekNext()));
            assertEquals("2", s(it.next().getValue()));
            assertEquals("d", key(it.next()));
            assertFalse(it.hasNext());
            it.seekToLast();
            assertEquals("b", key(it.prev()));
            assertFalse(it.hasPrev());
            it.seek(b("a"));
            assertEquals("b", key(it.peekNext()));
            it.seek(b("c"));
            assertEquals("d", key(it.peekNext()));
        }
        try (CursorIterator it = cursor(v, before)) {
            List<String> seen = new ArrayList<>();
            while (it.hasNext()) {
                Map.Entry<byte[], byte[]> e = it.next();
                seen.add(key(e) + "=" + s(e.getValue()));
            }
            assertEquals(List.of("a=1", "b=2", "c=1"), seen);
            it.seekToLast();
            assertEquals("c", key(it.peekNext()));
            assertEquals("b", key(it.prev()));
            assertEquals("a", key(it.prev()));
        }
    }

    @Test
    void entriesAreCopiesThatDoNotChange() {
        try (CursorIterator it = cursor("a", "b")) {
            Map.Entry<byte[], byte[]> a = it.next();
            a.getKey()[0] = 'z';
            a.getValue()[0] = 'z';
            Map.Entry<byte[], byte[]> again = it.prev();
            assertEquals("a", key(again));
            assertEquals("va", s(again.getValue()));
            Map.Entry<byte[], byte[]> b = it.peekNext();
            it.seekToLast();
            it.seek(b("a"));
            assertEquals("a", key(b));
            assertThrows(UnsupportedOperationException.class, () -> b.setValue(new byte[0]));
            assertThrows(UnsupportedOperationException.class, it::remove);
        }
    }

    @Test
    void closeIsIdempotentAndUseAfterCloseFails() {
        CursorIterator it = cursor("a", "b");
        it.next();
        it.close();
        it.close();
        assertEquals(1, released.get(), "the release action runs once");
        List<Executable> calls = List.of(it::hasNext, it::next, it::peekNext, it::hasPrev, it::prev, it::peekPrev,
                it::seekToFirst, it::seekToLast, () -> it.seek(b("a")), it::remove, it::descending);
        for (Executable call : calls) {
            DBException e = assertThrows(DBException.class, call);
            assertEquals("iterator is closed", e.getMessage());
        }
        assertEquals(1, released.get());
    }

    @Test
    void closeReleasesEvenANeverUsedIterator() {
        CursorIterator it = cursor("a");
        it.close();
        assertEquals(1, released.get());
    }
}
