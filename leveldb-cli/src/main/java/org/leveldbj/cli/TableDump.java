package org.leveldbj.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.table.BlockHandle;
import org.leveldbj.table.Footer;

/**
 * The dump of a table file: its size and footer, the index block (each data block's separator
 * key and handle), the metaindex block and the meta blocks it names (filters), then every data
 * block with its entries as internal keys ({@code 'user key' @ sequence : type}) and values.
 *
 * <p>Thread safety: confined to one thread.
 */
final class TableDump implements TableWalker.Visitor {
    private final DumpSink sink;
    /** The entries of the block being read, printed once its header is known. */
    private final List<String> pendingText = new ArrayList<>();
    private final List<Json.JsonObject> pendingJson = new ArrayList<>();

    private TableDump(DumpSink sink) {
        this.sink = sink;
    }

    /**
     * Dumps a table.
     *
     * @param path the file
     * @param sink the output
     * @throws IOException if the file cannot be read
     */
    static void dump(Path path, DumpSink sink) throws IOException {
        long size = Files.size(path);
        sink.text("table " + path + ": " + Plural.count(size, "byte"));
        sink.json(Json.object().add("kind", "table").add("file", path.toString()).add("size", size));
        TableWalker.walk(path, new TableDump(sink), true);
    }

    @Override
    public void footer(Footer footer, long fileSize) {
        sink.text("footer: metaindex " + handle(footer.metaindex()) + ", index " + handle(footer.index()));
        sink.json(Json.object().add("kind", "footer")
                .add("metaindex_offset", footer.metaindex().offset()).add("metaindex_size", footer.metaindex().size())
                .add("index_offset", footer.index().offset()).add("index_size", footer.index().size()));
    }

    @Override
    public void indexEntry(byte[] key, BlockHandle handle) {
        pendingText.add("  " + InternalKeys.toString(key) + " -> data block " + handle(handle));
        pendingJson.add(DumpSink.internalKey(Json.object().add("kind", "index_entry"), "", key)
                .add("block_offset", handle.offset()).add("block_size", handle.size()));
    }

    @Override
    public void metaEntry(String name, BlockHandle handle) {
        pendingText.add("  " + name + " -> " + handle(handle));
        pendingJson.add(Json.object().add("kind", "meta_entry").add("name", name)
                .add("block_offset", handle.offset()).add("block_size", handle.size()));
    }

    @Override
    public void dataEntry(BlockHandle block, byte[] key, byte[] value) {
        pendingText.add("  " + InternalKeys.toString(key) + " => " + DumpSink.valueText(key, value));
        pendingJson.add(DumpSink.value(DumpSink.internalKey(Json.object().add("kind", "entry"), "", key), key, value));
    }

    @Override
    public void block(TableWalker.BlockInfo block) {
        String entries = block.entries() >= 0 ? " entries=" + block.entries() : "";
        String detail = block.detail().isEmpty() ? "" : ": " + block.detail();
        sink.text(block.kind() + " block " + handle(block.handle()) + " compression="
                + StatsCommand.codec(block.compression()) + entries + detail);
        Json.JsonObject o = Json.object().add("kind", "block").add("block", block.kind())
                .add("offset", block.handle().offset()).add("size", block.handle().size())
                .add("compression", StatsCommand.codec(block.compression()));
        if (block.entries() >= 0) {
            o.add("entries", block.entries());
        }
        if (!block.detail().isEmpty()) {
            o.add("detail", block.detail());
        }
        sink.json(o);
        flushPending();
    }

    @Override
    public void problem(CorruptionException e) {
        // Entries read before the damage was found are still shown.
        flushPending();
        sink.problem(e);
    }

    private void flushPending() {
        pendingText.forEach(sink::text);
        pendingJson.forEach(sink::json);
        pendingText.clear();
        pendingJson.clear();
    }

    private static String handle(BlockHandle h) {
        return "offset=" + h.offset() + " size=" + h.size();
    }
}
