package org.leveldbj.version;

import java.nio.ByteBuffer;
import java.util.List;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.util.Coding;

/**
 * Iterates over the files of one sorted level (level 1 and deeper): the key of an entry is the
 * file's largest internal key, its value the file number and size as two fixed64 values. It is
 * the index of the {@link org.leveldbj.iterator.TwoLevelIterator} that concatenates a level's
 * tables.
 *
 * <p>Requires: the files are sorted and do not overlap.
 *
 * <p>Thread safety: confined to one thread, like every {@link SortedIterator}.
 */
final class FileListIterator implements SortedIterator {
    /** Length of an entry's value: file number and file size. */
    static final int VALUE_LENGTH = 16;

    private final InternalKeyComparator icmp;
    private final List<FileMetaData> files;
    private final byte[] value = new byte[VALUE_LENGTH];
    private int index;

    FileListIterator(InternalKeyComparator icmp, List<FileMetaData> files) {
        this.icmp = icmp;
        this.files = files;
        this.index = files.size();
    }

    /**
     * Decodes the file number of an entry value.
     *
     * @param value a value returned by {@link #value()}
     * @return the file number
     */
    static long fileNumber(ByteBuffer value) {
        return Coding.getFixed64(value, value.position(), value.limit());
    }

    /**
     * Decodes the file size of an entry value.
     *
     * @param value a value returned by {@link #value()}
     * @return the file size
     */
    static long fileSize(ByteBuffer value) {
        return Coding.getFixed64(value, value.position() + 8, value.limit());
    }

    @Override
    public boolean valid() {
        return index < files.size();
    }

    @Override
    public void seekToFirst() {
        index = 0;
    }

    @Override
    public void seekToLast() {
        index = files.isEmpty() ? 0 : files.size() - 1;
    }

    @Override
    public void seek(ByteBuffer target) {
        byte[] key = new byte[target.remaining()];
        target.get(target.position(), key);
        index = Version.findFile(icmp, files, key);
    }

    @Override
    public void next() {
        assert valid();
        index++;
    }

    @Override
    public void prev() {
        assert valid();
        index = index == 0 ? files.size() : index - 1;
    }

    @Override
    public ByteBuffer key() {
        assert valid();
        return ByteBuffer.wrap(files.get(index).largest()).asReadOnlyBuffer();
    }

    @Override
    public ByteBuffer value() {
        assert valid();
        FileMetaData f = files.get(index);
        Coding.putFixed64(value, 0, f.number());
        Coding.putFixed64(value, 8, f.fileSize());
        return ByteBuffer.wrap(value).asReadOnlyBuffer();
    }

    @Override
    public void close() {
        // holds nothing
    }
}
