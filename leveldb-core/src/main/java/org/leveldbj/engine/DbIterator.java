package org.leveldbj.engine;

import java.nio.ByteBuffer;
import java.util.concurrent.ThreadLocalRandom;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.stats.Counters;
import org.leveldbj.util.Bytes;
import org.leveldbj.util.Coding;
import org.leveldbj.vlog.LentValue;

/**
 * Turns an iterator over internal keys (the merge of memtables and tables) into an iterator over
 * the database's user entries as of one sequence number: for each user key it yields only the
 * newest entry whose sequence number is at most the snapshot's, and nothing when that entry is
 * a deletion. Keys are user keys, {@link #seek} takes a user key, values are the stored values.
 *
 * <p>How it moves (as C++ LevelDB's database iterator does). Going forward, the internal
 * iterator sits on the entry being yielded, and {@link #key()} and {@link #value()} are views of
 * that entry (no copy); a step remembers the user key, then skips the remaining (older) entries
 * of that key and the entries hidden by deletions. Going backward, the internal iterator sits
 * just before all entries of the yielded key: a backward step reads the entries of the previous
 * user key from oldest to newest, keeping a copy of the newest visible one in reusable buffers,
 * which {@link #key()} and {@link #value()} then return; the entry of an earlier key it stopped
 * on stays parsed, and the next backward step starts from it, so each entry is parsed once in
 * either direction. Turning from forward to backward first
 * steps the internal iterator back past the current key's entries; turning from backward to
 * forward steps it into them and skips them.
 *
 * <p>Read sampling: every entry read adds its key and value size to a byte count; each time the
 * count passes a random point (uniform below twice {@link #READ_BYTES_PERIOD}, so about once per
 * MiB) the {@link ReadSampler} is called with the internal key read, so that the database can
 * charge a seek to the files holding it and schedule a compaction.
 *
 * <p>Errors: an internal key shorter than its 8-byte trailer or with an unknown type raises
 * {@link CorruptionException} (C++ LevelDB skips such an entry and reports it later through the
 * iterator's status; the Java API has no such status, so failing is the only way to tell). Any
 * exception leaves this iterator unpositioned.
 *
 * <p>Thread safety: confined to one thread, like every {@link SortedIterator}.
 *
 * <p>Lifetime: owns the internal iterator and closes it when closed. The buffers returned by
 * {@link #key()} and {@link #value()} are valid until the iterator next moves.
 */
public final class DbIterator implements SortedIterator {
    /** The average number of bytes read between two read samples (C++ LevelDB's 1 MiB). */
    public static final int READ_BYTES_PERIOD = 1 << 20;

    /** Receives the internal keys picked by read sampling. */
    @FunctionalInterface
    public interface ReadSampler {
        /** A sampler that ignores every sample (and lets the iterator skip counting bytes). */
        ReadSampler NONE = internalKey -> { };

        /**
         * Called with a sampled entry.
         *
         * @param internalKey a copy of the entry's internal key, the sampler's to keep
         */
        void sample(byte[] internalKey);
    }

    /** Lends the value a separated entry refers to. */
    @FunctionalInterface
    public interface ValueResolver {
        /**
         * A resolver for databases without value files: a reference entry is a corruption.
         */
        ValueResolver NONE = reference -> {
            throw new CorruptionException("value reference in a database without value files");
        };

        /**
         * Lends a separated value.
         *
         * @param encodedReference the entry's value: a reference's encoding (a view valid only
         *     during the call)
         * @return the value, valid until its release is run, which the iterator does once it
         *     has moved on
         * @throws CorruptionException if the reference or its record is damaged
         */
        LentValue resolve(ByteBuffer encodedReference);
    }

    private static final int TRAILER = InternalKeys.TRAILER_SIZE;
    private static final int DELETION = ValueType.DELETION.persistentId();
    private static final int VALUE = ValueType.VALUE.persistentId();
    private static final int VALUE_REFERENCE = ValueType.VALUE_REFERENCE.persistentId();
    /** A saved value buffer larger than the value by more than this is given back. */
    private static final int SHRINK_SLACK = 1 << 20;

    private final SortedIterator iter;
    private final KeyComparator userComparator;
    private final long sequence;
    /** The trailer of sought keys: the snapshot's sequence, the type that sorts first. */
    private final long seekTrailer;
    private final ReadSampler sampler;
    private final boolean sampling;
    private final ValueResolver resolver;
    /** Counts positionings; null for none. */
    private final Counters counters;
    private long bytesUntilSample;

    private boolean valid;
    private boolean reverse;
    private boolean closed;

    /** The parts of the internal iterator's current entry, set by {@link #parse()}. */
    private ByteBuffer curKey;
    private int curUserLength;
    private long curSequence;
    private int curType;
    /**
     * The internal iterator's value at the entry {@link #parse()} read last when it sampled (the
     * sampling reads it anyway), so that {@link #value()} need not ask again; else {@code null}.
     */
    private ByteBuffer curValue;

    /** A user key: the key to skip going forward, the yielded key going backward. */
    private byte[] savedKey = new byte[64];
    private int savedKeyLength;
    private ByteBuffer savedKeyView = ByteBuffer.wrap(savedKey);
    /** The yielded value going backward. */
    private byte[] savedValue = new byte[256];
    private int savedValueLength;
    private ByteBuffer savedValueView = ByteBuffer.wrap(savedValue);
    /** The type of the yielded entry going backward: a value or a reference. */
    private int savedType;
    /**
     * The current separated value once lent, for the move numbered {@link #resolvedAt}; released
     * when the next one is lent and on close.
     */
    private LentValue resolved;
    private long resolvedAt = -1;
    /** Counts the moves, so that a resolved value is read once per entry. */
    private long moves;
    /** The internal key sought by {@link #seek}. */
    private byte[] seekKey = new byte[64];
    private ByteBuffer seekView = ByteBuffer.wrap(seekKey);

    /**
     * Going forward: whether the saved key is the current entry's, copied by {@link #key()}, so
     * that {@link #next()} need not copy it again.
     */
    private boolean savedIsCurrent;

    /**
     * Creates an iterator, unpositioned.
     *
     * @param internal an iterator over internal keys ordered by the internal-key comparator of
     *     {@code userComparator}; owned from now on
     * @param userComparator the order of user keys
     * @param sequence the snapshot: entries with a larger sequence number are invisible;
     *     between 0 and {@link InternalKeys#MAX_SEQUENCE}
     * @param sampler receives read samples; {@link ReadSampler#NONE} for none
     */
    public DbIterator(SortedIterator internal, KeyComparator userComparator, long sequence, ReadSampler sampler) {
        this(internal, userComparator, sequence, sampler, ValueResolver.NONE);
    }

    /**
     * Creates an iterator, unpositioned, over a database whose entries may refer to separated
     * values.
     *
     * @param internal an iterator over internal keys ordered by the internal-key comparator of
     *     {@code userComparator}; owned from now on
     * @param userComparator the order of user keys
     * @param sequence the snapshot: entries with a larger sequence number are invisible;
     *     between 0 and {@link InternalKeys#MAX_SEQUENCE}
     * @param sampler receives read samples; {@link ReadSampler#NONE} for none
     * @param resolver reads the values of reference entries
     */
    public DbIterator(SortedIterator internal, KeyComparator userComparator, long sequence, ReadSampler sampler,
                      ValueResolver resolver) {
        this(internal, userComparator, sequence, sampler, resolver, null);
    }

    /**
     * Creates an iterator, unpositioned, whose positionings are counted.
     *
     * @param internal an iterator over internal keys ordered by the internal-key comparator of
     *     {@code userComparator}; owned from now on
     * @param userComparator the order of user keys
     * @param sequence the snapshot: entries with a larger sequence number are invisible;
     *     between 0 and {@link InternalKeys#MAX_SEQUENCE}
     * @param sampler receives read samples; {@link ReadSampler#NONE} for none
     * @param resolver reads the values of reference entries
     * @param counters counts every seek, seek to first and seek to last; {@code null} for none
     */
    public DbIterator(SortedIterator internal, KeyComparator userComparator, long sequence, ReadSampler sampler,
                      ValueResolver resolver, Counters counters) {
        this.counters = counters;
        this.resolver = resolver;
        this.iter = internal;
        this.userComparator = userComparator;
        this.sequence = sequence;
        this.seekTrailer = InternalKeys.packTrailer(sequence, ValueType.FOR_SEEK);
        this.sampler = sampler;
        this.sampling = sampler != ReadSampler.NONE;
        this.bytesUntilSample = sampling ? randomPeriod() : Long.MAX_VALUE;
    }

    private void countSeek() {
        if (counters != null) {
            counters.countSeek();
        }
    }

    @Override
    public boolean valid() {
        return valid;
    }

    /**
     * The snapshot this iterator reads.
     *
     * @return the largest visible sequence number
     */
    public long sequence() {
        return sequence;
    }

    @Override
    public void seekToFirst() {
        countSeek();
        moves++;
        savedIsCurrent = false;
        reverse = false;
        valid = false;
        clearSavedValue();
        try {
            iter.seekToFirst();
            if (iter.valid()) {
                findNextUserEntry(false);
            }
        } catch (RuntimeException | Error e) {
            valid = false;
            throw e;
        }
    }

    @Override
    public void seekToLast() {
        countSeek();
        moves++;
        savedIsCurrent = false;
        reverse = true;
        valid = false;
        clearSavedValue();
        try {
            iter.seekToLast();
            findPrevUserEntry(false);
        } catch (RuntimeException | Error e) {
            valid = false;
            throw e;
        }
    }

    @Override
    public void seek(ByteBuffer target) {
        countSeek();
        moves++;
        savedIsCurrent = false;
        reverse = false;
        valid = false;
        clearSavedValue();
        int n = target.remaining();
        if (seekKey.length < n + TRAILER) {
            seekKey = new byte[Math.max(n + TRAILER, 2 * seekKey.length)];
            seekView = ByteBuffer.wrap(seekKey);
        }
        target.get(target.position(), seekKey, 0, n);
        Coding.putFixed64(seekKey, n, seekTrailer);
        seekView.limit(n + TRAILER).position(0);
        try {
            iter.seek(seekView);
            if (iter.valid()) {
                findNextUserEntry(false);
            }
        } catch (RuntimeException | Error e) {
            valid = false;
            throw e;
        }
    }

    @Override
    public void next() {
        assert valid;
        moves++;
        try {
            if (reverse) {
                // The internal iterator is just before the entries of the current key, which
                // the saved key names: step into them; the skipping below passes them.
                reverse = false;
                if (iter.valid()) {
                    iter.next();
                } else {
                    iter.seekToFirst();
                }
            } else {
                // The current entry was parsed when the iterator reached it.
                if (!savedIsCurrent) {
                    saveKey(curKey, curKey.position(), curUserLength);
                }
                iter.next();
            }
            savedIsCurrent = false;
            if (!iter.valid()) {
                valid = false;
                return;
            }
            findNextUserEntry(true);
        } catch (RuntimeException | Error e) {
            valid = false;
            throw e;
        }
    }

    @Override
    public void prev() {
        moves++;
        savedIsCurrent = false;
        assert valid;
        try {
            if (!reverse) {
                // Step back past every entry of the current key, then read backwards as usual.
                ByteBuffer k = iter.key();
                saveKey(k, k.position(), userLength(k));
                while (true) {
                    iter.prev();
                    if (!iter.valid()) {
                        valid = false;
                        clearSavedValue();
                        return;
                    }
                    ByteBuffer p = iter.key();
                    if (userComparator.compare(p, p.position(), userLength(p), savedKeyView, 0, savedKeyLength) < 0) {
                        break;
                    }
                }
                reverse = true;
                findPrevUserEntry(false);
            } else {
                // Going backward, the last step stopped on the parsed entry this one starts from.
                findPrevUserEntry(true);
            }
        } catch (RuntimeException | Error e) {
            valid = false;
            throw e;
        }
    }

    @Override
    public ByteBuffer key() {
        assert valid;
        if (reverse) {
            return savedKeyView.limit(savedKeyLength).position(0);
        }
        // Copied rather than viewed: in a merged scan consecutive entries come from different
        // sources' buffers, and next() saves this key all the same.
        if (!savedIsCurrent) {
            saveKey(curKey, curKey.position(), curUserLength);
            savedIsCurrent = true;
        }
        return savedKeyView.limit(savedKeyLength).position(0);
    }

    @Override
    public ByteBuffer value() {
        assert valid;
        ByteBuffer raw;
        int type;
        if (reverse) {
            raw = savedValueView.limit(savedValueLength).position(0);
            type = savedType;
        } else {
            raw = curValue != null ? curValue : iter.value();
            type = curType;
        }
        if (type != VALUE_REFERENCE) {
            return raw;
        }
        if (resolvedAt != moves) {
            releaseResolved();
            resolved = resolver.resolve(raw);
            resolvedAt = moves;
        }
        return resolved.value();
    }

    /** Gives back the separated value lent for an earlier entry, if any. */
    private void releaseResolved() {
        LentValue lent = resolved;
        if (lent != null) {
            resolved = null;
            resolvedAt = -1;
            lent.release().run();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        valid = false;
        try {
            releaseResolved();
        } finally {
            iter.close();
        }
    }

    /**
     * Moves forward from the internal iterator's entry to the first entry to yield: visible, a
     * value, and not hidden by a deletion or (when {@code skipping}) by the saved key.
     * Requires: the internal iterator is positioned.
     */
    private void findNextUserEntry(boolean skipping) {
        do {
            parse();
            if (curSequence <= sequence) {
                if (curType == DELETION) {
                    // Every later entry of this key is older: hidden by the deletion.
                    saveKey(curKey, curKey.position(), curUserLength);
                    skipping = true;
                } else if (!skipping || userComparator.compare(curKey, curKey.position(), curUserLength,
                        savedKeyView, 0, savedKeyLength) > 0) {
                    valid = true;
                    return;
                }
            }
            iter.next();
        } while (iter.valid());
        valid = false;
    }

    /**
     * Moves backward until the entries of one user key have all been read and the newest
     * visible one is a value, which is saved; unpositions this iterator at the start. The
     * entry it stops on, of an earlier key, stays parsed for the next backward step.
     *
     * @param parsed whether the internal iterator's entry is already parsed into the
     *     {@code cur*} fields (the previous backward step stopped on it)
     */
    private void findPrevUserEntry(boolean parsed) {
        int type = DELETION;
        while (iter.valid()) {
            if (!parsed) {
                parse();
            }
            parsed = false;
            if (curSequence <= sequence) {
                if (type != DELETION && userComparator.compare(curKey, curKey.position(), curUserLength,
                        savedKeyView, 0, savedKeyLength) < 0) {
                    break; // an entry of an earlier key: the saved one is complete
                }
                type = curType;
                if (type == DELETION) {
                    savedKeyLength = 0;
                    clearSavedValue();
                } else {
                    saveKey(curKey, curKey.position(), curUserLength);
                    saveValue(curValue != null ? curValue : iter.value());
                    savedType = type;
                }
            }
            iter.prev();
        }
        if (type == DELETION) {
            valid = false;
            savedKeyLength = 0;
            clearSavedValue();
            reverse = false;
        } else {
            valid = true;
        }
    }

    /** Reads the internal iterator's entry into the {@code cur*} fields, sampling reads. */
    private void parse() {
        ByteBuffer k = iter.key();
        int p = k.position();
        int n = k.remaining();
        if (n < TRAILER) {
            throw corruptKey(k);
        }
        long trailer = Coding.getFixed64(k, p + n - TRAILER, p + n);
        int type = (int) (trailer & 0xff);
        if (type != VALUE && type != DELETION && type != VALUE_REFERENCE) {
            throw corruptKey(k);
        }
        curKey = k;
        curUserLength = n - TRAILER;
        curSequence = trailer >>> 8;
        curType = type;
        if (sampling) {
            ByteBuffer v = iter.value();
            curValue = v;
            bytesUntilSample -= n + v.remaining();
            if (bytesUntilSample < 0) {
                sample(k);
            }
        }
    }

    /**
     * Hands the key to the sampler, about once a megabyte read. The copy goes through the shared
     * {@link Bytes#toArray}, whose calls on the buffer have met every buffer class, rather than
     * a call here that only the rare samples profile: a scan loop compiled while those had all
     * been heap keys was deoptimized and recompiled, several times in a row, by its first
     * sample of a key of another class (a view of a block stored uncompressed).
     */
    private void sample(ByteBuffer k) {
        while (bytesUntilSample < 0) {
            bytesUntilSample += randomPeriod();
            sampler.sample(Bytes.toArray(k));
        }
    }

    private int userLength(ByteBuffer internalKey) {
        int n = internalKey.remaining();
        if (n < TRAILER) {
            throw corruptKey(internalKey);
        }
        return n - TRAILER;
    }

    private CorruptionException corruptKey(ByteBuffer k) {
        byte[] bytes = new byte[k.remaining()];
        k.get(k.position(), bytes);
        return new CorruptionException("corrupted internal key in database iterator: '" + Bytes.escape(bytes) + "'",
                iter.source(), iter.sourceOffset());
    }

    private void saveKey(ByteBuffer k, int offset, int length) {
        if (savedKey.length < length) {
            savedKey = new byte[Math.max(length, 2 * savedKey.length)];
            savedKeyView = ByteBuffer.wrap(savedKey);
        }
        if (k.hasArray()) {
            System.arraycopy(k.array(), k.arrayOffset() + offset, savedKey, 0, length);
        } else {
            k.get(offset, savedKey, 0, length);
        }
        savedKeyLength = length;
        savedKeyView.limit(length).position(0);
    }

    private void saveValue(ByteBuffer v) {
        int n = v.remaining();
        if (savedValue.length < n || savedValue.length > n + SHRINK_SLACK) {
            savedValue = new byte[savedValue.length < n ? Math.max(n, 2 * savedValue.length) : n];
            savedValueView = ByteBuffer.wrap(savedValue);
        }
        if (v.hasArray()) {
            System.arraycopy(v.array(), v.arrayOffset() + v.position(), savedValue, 0, n);
        } else {
            v.get(v.position(), savedValue, 0, n);
        }
        savedValueLength = n;
    }

    private void clearSavedValue() {
        savedValueLength = 0;
        if (savedValue.length > SHRINK_SLACK) {
            savedValue = new byte[256];
            savedValueView = ByteBuffer.wrap(savedValue);
        }
    }

    private static long randomPeriod() {
        return ThreadLocalRandom.current().nextInt(2 * READ_BYTES_PERIOD);
    }
}
