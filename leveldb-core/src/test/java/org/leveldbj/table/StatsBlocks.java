package org.leveldbj.table;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.util.Coding;
import org.leveldbj.util.Crc32c;

/** Byte surgery on a table file's stats block, for tests of other packages too. */
public final class StatsBlocks {
    private StatsBlocks() {
    }

    /**
     * Finds the stats block through the footer and the metaindex.
     *
     * @param file the table file's bytes
     * @return the block's handle, or {@code null} when the metaindex names none
     */
    public static BlockHandle find(byte[] file) {
        Footer footer = Footer.decode(ByteBuffer.wrap(file), file.length - Footer.ENCODED_LENGTH, Footer.ENCODED_LENGTH);
        BlockHandle mh = footer.metaindex();
        // Read as a table reads it: goleveldb compresses its metaindex blocks.
        Block meta = new Block(BlockReader.read(TestFiles.BufferFile.of(file, false), "table", mh, true).data());
        BlockIterator it = meta.iterator(BytewiseComparator.INSTANCE);
        ByteBuffer name = ByteBuffer.wrap(StatsBlock.KEY);
        it.seek(name);
        if (!it.valid() || !it.key().equals(name)) {
            return null;
        }
        return BlockHandle.decode(it.value());
    }

    /**
     * Replaces the stats block's contents by others of the same length and stores a matching
     * checksum, so that the block reads as those bytes.
     *
     * @param file the table file's bytes, changed in place
     * @param contents the new contents, exactly as long as the block
     */
    public static void rewrite(byte[] file, byte[] contents) {
        BlockHandle h = find(file);
        if (h == null || contents.length != h.size()) {
            throw new IllegalArgumentException("stats block " + h + ", new contents " + contents.length + " bytes");
        }
        int at = (int) h.offset();
        System.arraycopy(contents, 0, file, at, contents.length);
        CRC32C crc = new CRC32C();
        crc.update(file, at, contents.length + 1); // contents and the type byte
        Coding.putFixed32(file, at + contents.length + 1, Crc32c.mask((int) crc.getValue()));
    }
}
