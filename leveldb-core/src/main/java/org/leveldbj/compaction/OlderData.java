package org.leveldbj.compaction;

import java.nio.ByteBuffer;
import org.iq80.leveldb.DBException;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.PointLookup;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.version.Version;
import org.leveldbj.version.VersionSet;

/**
 * The data older than a table being written, as a table writer samples it
 * ({@link TableFileWriter#sampleNovelty}): the tables of a version from one level down. A flush
 * looks in every table of the version it was started on (all older than its memtable); a
 * compaction into level {@code n} looks in levels {@code n + 1} and below (the inputs are being
 * merged, and what the output level holds outside them does not overlap them).
 *
 * <p>A lookup reads the tables as a read does (bloom filters first), without filling the block
 * cache and without charging seeks. A key is live when the newest version found is a value. A
 * table that cannot be read counts as not holding the key: the estimate is advisory, and reads
 * report the damage.
 *
 * <p>Thread safety: confined to the writing thread. Lifetime: the caller keeps the version
 * referenced while it is used.
 */
public final class OlderData {
    private static final TableReadOptions READ = TableReadOptions.of(false, false);

    private final Version version;
    private final int fromLevel;
    private final PointLookup lookup = new PointLookup();
    private final Version.GetStats stats = new Version.GetStats();

    /**
     * Looks in a version's tables from a level down.
     *
     * @param version the version
     * @param fromLevel the first level looked in, 0 to {@link VersionSet#NUM_LEVELS} (none)
     */
    public OlderData(Version version, int fromLevel) {
        this.version = version;
        this.fromLevel = fromLevel;
    }

    /**
     * Whether the data holds a key live.
     *
     * @param internalKey an internal key (remaining bytes; position not moved); its user key is
     *     looked up, at any sequence number
     * @return {@code true} when the newest version found is a value
     */
    public boolean holdsLive(ByteBuffer internalKey) {
        if (fromLevel >= VersionSet.NUM_LEVELS || internalKey.remaining() < InternalKeys.TRAILER_SIZE) {
            return false;
        }
        byte[] userKey = new byte[internalKey.remaining() - InternalKeys.TRAILER_SIZE];
        internalKey.get(internalKey.position(), userKey);
        lookup.start(userKey, InternalKeys.MAX_SEQUENCE);
        try {
            version.get(lookup, READ, stats, fromLevel);
        } catch (DBException unreadable) {
            return false;
        }
        return lookup.state() == PointLookup.FOUND;
    }
}
