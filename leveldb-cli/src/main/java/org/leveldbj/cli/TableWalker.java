package org.leveldbj.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.table.Block;
import org.leveldbj.table.BlockContents;
import org.leveldbj.table.BlockHandle;
import org.leveldbj.table.BlockIterator;
import org.leveldbj.table.BlockReader;
import org.leveldbj.table.Footer;
import org.leveldbj.util.Bytes;
import org.leveldbj.util.Coding;

/**
 * Reads a table file block by block with the engine's readers, checking every block's
 * checksum, and tells a {@link Visitor} what it finds, in this order: the footer; the index
 * block and its entries; the metaindex block, its entries and the blocks they name (filters);
 * then every data block and, when asked, its entries. {@code dump}, {@code verify} and
 * {@code stats} are visitors.
 *
 * <p>Damage is reported to {@link Visitor#problem} and the walk goes on where it can: a bad data
 * block is skipped, a bad metaindex or filter block does not stop the data blocks; a bad footer
 * or index block ends the walk (the data blocks cannot be found without them).
 *
 * <p>Thread safety: stateless; a walk runs on the calling thread.
 */
final class TableWalker {
    /** The meta block that holds C++ LevelDB's bloom filters. */
    static final String BLOOM_FILTER_BLOCK = "filter.leveldb.BuiltinBloomFilter2";

    /**
     * One block.
     *
     * @param kind {@code index}, {@code metaindex}, {@code filter}, {@code meta} or {@code data}
     * @param handle where it is (its size without the 5-byte trailer)
     * @param compression the trailer's compression type byte
     * @param entries how many entries it holds ({@code -1} for filter and other meta blocks)
     * @param detail more about it, e.g. a meta block's name and a filter's layout, or {@code ""}
     */
    record BlockInfo(String kind, BlockHandle handle, int compression, int entries, String detail) {
    }

    /** Receives what a walk finds. */
    interface Visitor {
        /**
         * The footer.
         *
         * @param footer the decoded footer
         * @param fileSize the size of the file
         */
        default void footer(Footer footer, long fileSize) {
        }

        /**
         * A block, after its entries were visited.
         *
         * @param block the block
         */
        default void block(BlockInfo block) {
        }

        /**
         * An entry of the index block: the separator key (an internal key) of a data block.
         *
         * @param key the separator
         * @param handle the data block
         */
        default void indexEntry(byte[] key, BlockHandle handle) {
        }

        /**
         * An entry of the metaindex block.
         *
         * @param name the meta block's name, e.g. {@value #BLOOM_FILTER_BLOCK}
         * @param handle where it is
         */
        default void metaEntry(String name, BlockHandle handle) {
        }

        /**
         * An entry of a data block (only when entries were asked for).
         *
         * @param block the data block
         * @param key its internal key
         * @param value its value
         */
        default void dataEntry(BlockHandle block, byte[] key, byte[] value) {
        }

        /**
         * Damage found; the walk goes on where it can.
         *
         * @param e the damage, naming the file and offset
         */
        void problem(CorruptionException e);
    }

    private final Env.RandomAccessFile file;
    private final String name;
    private final Visitor visitor;
    private final boolean entries;

    private TableWalker(Env.RandomAccessFile file, String name, Visitor visitor, boolean entries) {
        this.file = file;
        this.name = name;
        this.visitor = visitor;
        this.entries = entries;
    }

    /**
     * Walks a table file.
     *
     * @param path the file
     * @param visitor receives what is found
     * @param entries whether to visit the entries of the data blocks (they are decoded anyway)
     * @throws IOException if the file cannot be opened
     */
    static void walk(Path path, Visitor visitor, boolean entries) throws IOException {
        try (Env.RandomAccessFile file = FileSystemEnv.getDefault().newRandomAccessFile(path)) {
            new TableWalker(file, path.toString(), visitor, entries).walk();
        }
    }

    /**
     * Reads the names of a table's meta blocks (such as {@value #BLOOM_FILTER_BLOCK}).
     *
     * @param path the table file
     * @return the names, empty when the table is unreadable
     * @throws IOException if the file cannot be opened
     */
    static List<String> metaBlockNames(Path path) throws IOException {
        List<String> names = new ArrayList<>();
        try (Env.RandomAccessFile file = FileSystemEnv.getDefault().newRandomAccessFile(path)) {
            TableWalker walker = new TableWalker(file, path.toString(), e -> { }, false);
            Footer footer = walker.footer();
            if (footer != null) {
                walker.forEachEntry(walker.block(footer.metaindex()), footer.metaindex(),
                        (k, v) -> names.add(new String(k, StandardCharsets.UTF_8)));
            }
        } catch (CorruptionException e) {
            return names;
        }
        return names;
    }

    private void walk() {
        Footer footer = footer();
        if (footer == null) {
            return;
        }
        visitor.footer(footer, file.size());
        List<BlockHandle> dataBlocks = new ArrayList<>();
        try {
            int n = forEachEntry(block(footer.index()), footer.index(), (key, value) -> {
                BlockHandle handle = BlockHandle.decode(ByteBuffer.wrap(value));
                dataBlocks.add(handle);
                visitor.indexEntry(key, handle);
            });
            visitor.block(info("index", footer.index(), n, ""));
        } catch (CorruptionException e) {
            visitor.problem(e);
            return;
        }
        metaBlocks(footer.metaindex());
        for (BlockHandle handle : dataBlocks) {
            try {
                int n = forEachEntry(block(handle), handle, (key, value) -> {
                    if (entries) {
                        visitor.dataEntry(handle, key, value);
                    }
                });
                visitor.block(info("data", handle, n, ""));
            } catch (CorruptionException e) {
                visitor.problem(e);
            }
        }
    }

    /** Reads the footer; a damaged one is reported and gives {@code null}. */
    private Footer footer() {
        long size = file.size();
        if (size < Footer.ENCODED_LENGTH) {
            visitor.problem(new CorruptionException("file is too short to be an sstable (" + Plural.count(size, "byte")
                    + ")", name, 0));
            return null;
        }
        long at = size - Footer.ENCODED_LENGTH;
        try {
            ByteBuffer buf = file.read(at, Footer.ENCODED_LENGTH);
            return Footer.decode(buf, buf.position(), buf.remaining());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (CorruptionException e) {
            visitor.problem(e.at(name, at));
            return null;
        }
    }

    private void metaBlocks(BlockHandle metaindex) {
        List<String> names = new ArrayList<>();
        List<BlockHandle> handles = new ArrayList<>();
        try {
            int n = forEachEntry(block(metaindex), metaindex, (key, value) -> {
                String metaName = new String(key, StandardCharsets.UTF_8);
                BlockHandle handle = BlockHandle.decode(ByteBuffer.wrap(value));
                names.add(metaName);
                handles.add(handle);
                visitor.metaEntry(metaName, handle);
            });
            visitor.block(info("metaindex", metaindex, n, ""));
        } catch (CorruptionException e) {
            visitor.problem(e);
            return;
        }
        for (int i = 0; i < names.size(); i++) {
            BlockHandle handle = handles.get(i);
            try {
                BlockContents contents = BlockReader.read(file, name, handle, true);
                boolean filter = names.get(i).startsWith("filter.");
                String detail = names.get(i) + (filter ? ", " + filterLayout(contents.data(), handle) : "");
                visitor.block(info(filter ? "filter" : "meta", handle, -1, detail));
            } catch (CorruptionException e) {
                visitor.problem(e);
            }
        }
    }

    /** Describes a filter block: its filter count and base (one filter per 2^base bytes of data). */
    private String filterLayout(ByteBuffer data, BlockHandle handle) {
        int n = data.remaining();
        int p = data.position();
        if (n < 5) {
            throw new CorruptionException("bad filter block: " + Plural.count(n, "byte"), name, handle.offset());
        }
        long arrayOffset = Integer.toUnsignedLong(Coding.getFixed32(data, p + n - 5, p + n - 1));
        if (arrayOffset > n - 5) {
            throw new CorruptionException("bad filter block: offset array at " + arrayOffset, name, handle.offset());
        }
        long filters = (n - 5 - arrayOffset) / 4;
        return "filters=" + filters + " base_lg=" + (data.get(p + n - 1) & 0xff);
    }

    private Block block(BlockHandle handle) {
        BlockContents contents = BlockReader.read(file, name, handle, true);
        return new Block(contents.data(), name, handle.offset(), contents.decompressed());
    }

    private BlockInfo info(String kind, BlockHandle handle, int entryCount, String detail) {
        return new BlockInfo(kind, handle, BlockReader.compressionType(file, name, handle), entryCount, detail);
    }

    /** What {@link #forEachEntry} hands each entry to. */
    @FunctionalInterface
    private interface EntryConsumer {
        void accept(byte[] key, byte[] value);
    }

    /**
     * Hands every entry of a block to a consumer in order; returns how many there were. Damage
     * the decoders report without a location (a bad block handle) is placed at the block.
     */
    private int forEachEntry(Block block, BlockHandle handle, EntryConsumer consumer) {
        int n = 0;
        try (BlockIterator it = block.iterator(BytewiseComparator.INSTANCE)) {
            for (it.seekToFirst(); it.valid(); it.next()) {
                consumer.accept(Bytes.toArray(it.key()), Bytes.toArray(it.value()));
                n++;
            }
        } catch (CorruptionException e) {
            throw e.file() != null ? e : e.at(name, handle.offset());
        }
        return n;
    }
}
