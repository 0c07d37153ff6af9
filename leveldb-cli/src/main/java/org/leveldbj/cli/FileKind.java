package org.leveldbj.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.engine.WriteBatchImpl;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.filename.FileNames;
import org.leveldbj.log.LogReader;
import org.leveldbj.table.Footer;
import org.leveldbj.version.VersionEdit;
import org.leveldbj.vlog.ValueFileScanner;
import org.leveldbj.vlog.ValueFileWriter;

/**
 * The kinds of file {@code dump} reads, and how it tells them apart: by the name a database
 * gives them ({@code NNNNNN.ldb}/{@code .sst}, {@code NNNNNN.log}, {@code MANIFEST-NNNNNN},
 * {@code CURRENT}), and for other names by content: a table ends with the table magic number;
 * a log file whose first record decodes as a version edit is a MANIFEST, one whose first record
 * decodes as a write batch is a write-ahead log.
 *
 * <p>Thread safety: stateless.
 */
enum FileKind {
    TABLE, LOG, MANIFEST, CURRENT, VALUE;

    /**
     * Tells what kind of file a path is.
     *
     * @param path the file
     * @return its kind, or {@code null} when neither its name nor its content tells
     * @throws IOException if it cannot be read
     */
    static FileKind detect(Path path) throws IOException {
        FileNames.Parsed parsed = FileNames.parse(path.getFileName().toString());
        if (parsed != null) {
            switch (parsed.type()) {
                case TABLE:
                    return TABLE;
                case LOG:
                    return LOG;
                case DESCRIPTOR:
                    return MANIFEST;
                case CURRENT:
                    return CURRENT;
                case VALUE:
                    return VALUE;
                default:
                    break;
            }
        }
        if (endsWithTableMagic(path)) {
            return TABLE;
        }
        if (startsWithValueFileMagic(path)) {
            return VALUE;
        }
        return firstLogRecordKind(path);
    }

    private static boolean startsWithValueFileMagic(Path path) throws IOException {
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(path)) {
            return ValueFileScanner.isValueFileStart(in.readNBytes(ValueFileWriter.HEADER_SIZE));
        }
    }

    private static boolean endsWithTableMagic(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size < Footer.ENCODED_LENGTH) {
                return false;
            }
            ByteBuffer magic = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            while (magic.hasRemaining() && channel.read(magic, size - 8 + magic.position()) > 0) {
                // read all 8 bytes
            }
            return !magic.hasRemaining() && magic.getLong(0) == Footer.TABLE_MAGIC_NUMBER;
        }
    }

    private static FileKind firstLogRecordKind(Path path) throws IOException {
        try (LogReader reader = new LogReader(FileSystemEnv.getDefault().newSequentialFile(path), null)) {
            ByteBuffer record = reader.readRecord();
            if (record == null) {
                return null;
            }
            try {
                WriteBatchImpl batch = new WriteBatchImpl();
                batch.setContents(record.duplicate());
                batch.forEach(new WriteBatchImpl.Handler() {
                    @Override
                    public void put(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength) {
                    }

                    @Override
                    public void delete(byte[] data, int keyOffset, int keyLength) {
                    }
                });
                return LOG;
            } catch (CorruptionException notABatch) {
                try {
                    VersionEdit.decode(record.duplicate());
                    return MANIFEST;
                } catch (CorruptionException notAnEdit) {
                    return null;
                }
            }
        }
    }

    /** Lower case, as the option is written. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
