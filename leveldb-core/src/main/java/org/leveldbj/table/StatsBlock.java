package org.leveldbj.table;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.util.ByteCursor;
import org.leveldbj.util.ByteSink;

/**
 * The stats block: a meta block of this library's in which {@link TableBuilder} records how many
 * entries the table holds and how many of them are deletions, so that a database can count its
 * entries without reading its tables ({@code leveldb.approximate-num-entries}).
 *
 * <pre>
 *   metaindex key: "leveldbj.stats"
 *   contents (never compressed; the usual 5-byte trailer follows, type 0 and masked CRC32C):
 *     entries:   varint64     every entry of the table, values and deletions
 *     deletions: varint64     the entries that are deletions (at most entries)
 *     settled:   varint64     the deletions whose hidden older value the writer dropped (at most
 *                             deletions; see {@link EntryCounts})
 *   and, in blocks written since distinct keys are counted ({@link KeyCounts}):
 *     keys:      varint64     distinct user keys (at most entries)
 *     live:      varint64     those whose newest version is a value (at most keys, and at most
 *                             entries - deletions)
 *     tombstones: varint64    those whose oldest version is a deletion not settled (at most keys,
 *                             and at most deletions - settled)
 *     novel:     varint64     the live keys the writer took to be new to the database (at most
 *                             live)
 *     ...                     later fields, if any: a reader ignores bytes it does not know
 * </pre>
 * A block that ends after {@code settled} is of the first layout: its table's keys are not
 * counted ({@link EntryCounts#keys()} is {@code null}) and an estimate counts every version, as
 * it did. Readers of the first layout stop after {@code settled} and so read either layout.
 *
 * C++ LevelDB and goleveldb look up only {@code "filter." + policy name} in the metaindex and
 * ignore this entry. A reader treats a missing block as "counts unknown" and a damaged one
 * (checksum, truncated varint, a count above the one it is part of) the same way, keeping the
 * {@link CorruptionException} that names the file and the block's offset
 * ({@link Table#entryCountsError()}); the table stays readable either way.
 *
 * <p>Thread safety: stateless.
 */
public final class StatsBlock {
    /** The block's name in the metaindex. */
    public static final String NAME = "leveldbj.stats";

    static final byte[] KEY = NAME.getBytes(StandardCharsets.UTF_8);

    private StatsBlock() {
    }

    /**
     * Encodes the block's contents.
     *
     * @param counts the table's counts
     * @return the contents, without trailer
     */
    public static ByteBuffer encode(EntryCounts counts) {
        ByteSink out = new ByteSink(20);
        out.putVarint64(counts.entries());
        out.putVarint64(counts.deletions());
        out.putVarint64(counts.settledDeletions());
        KeyCounts keys = counts.keys();
        if (keys != null) {
            out.putVarint64(keys.keys());
            out.putVarint64(keys.liveKeys());
            out.putVarint64(keys.tombstoneKeys());
            out.putVarint64(keys.novelLiveKeys());
        }
        return out.view();
    }

    /**
     * Decodes the block's contents.
     *
     * @param contents the contents (remaining bytes; position not moved)
     * @param fileName the table file, for reports
     * @param blockOffset the block's offset in the file, for reports
     * @return the counts
     * @throws CorruptionException naming the file and offset if the contents are malformed
     */
    public static EntryCounts decode(ByteBuffer contents, String fileName, long blockOffset) {
        ByteCursor in = new ByteCursor(contents);
        long entries;
        long deletions;
        long settled;
        long[] keys = null;
        try {
            entries = in.readVarint64();
            deletions = in.readVarint64();
            settled = in.readVarint64();
            if (in.remaining() > 0) {
                keys = new long[4];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = in.readVarint64();
                }
            }
        } catch (CorruptionException e) {
            throw e.at(fileName, blockOffset);
        }
        try {
            return new EntryCounts(entries, deletions, settled,
                    keys == null ? null : new KeyCounts(keys[0], keys[1], keys[2], keys[3]));
        } catch (IllegalArgumentException e) {
            throw new CorruptionException("bad stats block: " + entries + " entries, " + deletions + " deletions, "
                    + settled + " settled" + (keys == null ? "" : ", keys " + Arrays.toString(keys)),
                    fileName, blockOffset);
        }
    }
}
