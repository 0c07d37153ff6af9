package org.leveldbj.engine;

import java.nio.ByteBuffer;
import org.iq80.leveldb.DBException;
import org.leveldbj.iterator.SortedIterator;

/**
 * A forward iterator that ends, instead of failing, at the first error of the iterator it
 * wraps: repair uses it to keep the readable prefix of a damaged table. The error is kept for
 * the report.
 *
 * <p>Thread safety: confined to one thread, like every iterator.
 */
final class StopAtFirstErrorIterator implements SortedIterator {
    private final SortedIterator in;
    private boolean failed;
    private DBException error;

    StopAtFirstErrorIterator(SortedIterator in) {
        this.in = in;
    }

    /** @return the error the wrapped iterator stopped at, or {@code null} */
    DBException error() {
        return error;
    }

    private void guard(Runnable move) {
        if (failed) {
            return;
        }
        try {
            move.run();
        } catch (DBException e) {
            failed = true;
            error = e;
        }
    }

    @Override
    public boolean valid() {
        return !failed && in.valid();
    }

    @Override
    public void seekToFirst() {
        guard(in::seekToFirst);
    }

    @Override
    public void seekToLast() {
        throw new UnsupportedOperationException("forward only");
    }

    @Override
    public void seek(ByteBuffer target) {
        guard(() -> in.seek(target));
    }

    @Override
    public void next() {
        guard(in::next);
    }

    @Override
    public void prev() {
        throw new UnsupportedOperationException("forward only");
    }

    @Override
    public ByteBuffer key() {
        return in.key();
    }

    @Override
    public ByteBuffer value() {
        return in.value();
    }

    @Override
    public void close() {
        in.close();
    }
}
