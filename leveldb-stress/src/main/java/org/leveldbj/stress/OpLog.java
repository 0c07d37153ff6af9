package org.leveldbj.stress;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The expected-state log of one stress thread: before each write an intent record (the
 * operation), after it returns an acknowledgement record. A kill may tear the last record;
 * {@link #read} stops at the first record that is short or fails its checksum.
 *
 * <p>Records go straight to the operating system with one {@code write} each (no buffering in
 * the process, no {@code fsync}): the test models a process crash, which the operating system's
 * page cache survives.
 *
 * <p>Record layout (big-endian): payload length {@code int}, CRC32C of the payload {@code int},
 * payload. Payload: type {@code byte} (1 intent, 2 acknowledgement), operation number
 * {@code long}, {@code System.nanoTime()} {@code long}; an intent then holds kind {@code byte},
 * flags {@code byte} (1 sync, 2 without the log), key count {@code int} and per key its index
 * {@code int} and a delete flag {@code byte}.
 *
 * <p>Thread safety: a writer belongs to one thread. Lifetime: close it when the thread ends.
 */
final class OpLog implements AutoCloseable {
    private static final byte INTENT = 1;
    private static final byte ACK = 2;
    private static final byte SYNC = 1;
    private static final byte UNLOGGED = 2;

    private final FileChannel channel;

    OpLog(Path file) throws IOException {
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
    }

    static Path file(Path dir, int thread) {
        return dir.resolve(String.format("thread-%03d.log", thread));
    }

    void intent(Op op) throws IOException {
        ByteBuffer p = ByteBuffer.allocate(17 + 6 + 5 * op.keys().length);
        p.put(INTENT).putLong(op.number()).putLong(op.intentNanos());
        p.put((byte) op.kind().ordinal()).put((byte) ((op.sync() ? SYNC : 0) | (op.unlogged() ? UNLOGGED : 0)))
                .putInt(op.keys().length);
        for (int i = 0; i < op.keys().length; i++) {
            p.putInt(op.keys()[i]).put((byte) (op.deletes()[i] ? 1 : 0));
        }
        write(p);
    }

    void ack(long op, long nanos) throws IOException {
        write(ByteBuffer.allocate(17).put(ACK).putLong(op).putLong(nanos));
    }

    private void write(ByteBuffer payload) throws IOException {
        payload.flip();
        CRC32C crc = new CRC32C();
        crc.update(payload.duplicate());
        ByteBuffer record = ByteBuffer.allocate(8 + payload.remaining());
        record.putInt(payload.remaining()).putInt((int) crc.getValue()).put(payload).flip();
        while (record.hasRemaining()) {
            channel.write(record);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /**
     * Reads a thread's log: its operations in order, each with its acknowledgement if one was
     * recorded. A missing file is an empty log.
     *
     * @throws IOException if the file cannot be read, or its records contradict each other (an
     *     acknowledgement of another operation than the last intent)
     */
    static List<Op> read(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return List.of();
        }
        List<Op> ops = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.remaining() >= 8) {
            int length = b.getInt();
            int checksum = b.getInt();
            if (length < 17 || length > b.remaining()) {
                break;
            }
            ByteBuffer p = b.slice(b.position(), length);
            CRC32C crc = new CRC32C();
            crc.update(p.duplicate());
            if ((int) crc.getValue() != checksum) {
                break;
            }
            b.position(b.position() + length);
            byte type = p.get();
            long number = p.getLong();
            long nanos = p.getLong();
            if (type == ACK) {
                int last = ops.size() - 1;
                if (last < 0 || ops.get(last).number() != number || ops.get(last).acked()) {
                    throw new IOException(file + ": acknowledgement of op " + number + " follows no intent of it");
                }
                ops.set(last, ops.get(last).withAck(nanos));
                continue;
            }
            Op.Kind kind = Op.Kind.values()[p.get()];
            byte flags = p.get();
            int n = p.getInt();
            int[] keys = new int[n];
            boolean[] deletes = new boolean[n];
            for (int i = 0; i < n; i++) {
                keys[i] = p.getInt();
                deletes[i] = p.get() != 0;
            }
            ops.add(new Op(number, kind, (flags & SYNC) != 0, (flags & UNLOGGED) != 0, keys, deletes, nanos, -1));
        }
        return ops;
    }
}
