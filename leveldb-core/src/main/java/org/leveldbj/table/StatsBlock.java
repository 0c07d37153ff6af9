package org.leveldbj.table;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
 *     ...                     later fields, if any: a reader ignores bytes it does not know
 * </pre>
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
        try {
            entries = in.readVarint64();
            deletions = in.readVarint64();
            settled = in.readVarint64();
        } catch (CorruptionException e) {
            throw e.at(fileName, blockOffset);
        }
        if (entries < 0 || deletions < 0 || deletions > entries || settled < 0 || settled > deletions) {
            throw new CorruptionException("bad stats block: " + entries + " entries, " + deletions + " deletions, "
                    + settled + " settled", fileName, blockOffset);
        }
        return new EntryCounts(entries, deletions, settled);
    }
}
