package org.leveldbj.engine;

import java.nio.ByteBuffer;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.iterator.SortedIterator;

/**
 * A database iterator kept within user-key bounds ({@code ReadOptions.iterateLowerBound} and
 * {@code iterateUpperBound}): it yields only keys {@code k} with {@code lower <= k < upper}, in
 * both directions. Positioning goes straight to the range (a seek to the lower bound for
 * {@code seekToFirst} or a seek before it; a seek to the upper bound and one step back for
 * {@code seekToLast}), and a step that leaves the range makes the iterator invalid without
 * reading further, so a scan never reads the blocks past its bound.
 *
 * <p>Thread safety: confined to one thread, like every {@link SortedIterator}.
 *
 * <p>Lifetime: owns the inner iterator and closes it when closed.
 */
final class BoundedIterator implements SortedIterator {
    private final SortedIterator inner;
    private final KeyComparator ucmp;
    /** Inclusive; {@code null} for none. */
    private final ByteBuffer lower;
    /** Exclusive; {@code null} for none. */
    private final ByteBuffer upper;
    private boolean valid;

    /**
     * Bounds an iterator.
     *
     * @param inner the iterator over user entries; owned from now on
     * @param ucmp the order of user keys
     * @param lower the smallest key to yield, or {@code null}
     * @param upper the first key not to yield, or {@code null}
     */
    BoundedIterator(SortedIterator inner, KeyComparator ucmp, byte[] lower, byte[] upper) {
        this.inner = inner;
        this.ucmp = ucmp;
        this.lower = lower == null ? null : ByteBuffer.wrap(lower.clone());
        this.upper = upper == null ? null : ByteBuffer.wrap(upper.clone());
    }

    @Override
    public boolean valid() {
        return valid;
    }

    @Override
    public void seekToFirst() {
        valid = false;
        if (lower != null) {
            inner.seek(lower.duplicate());
        } else {
            inner.seekToFirst();
        }
        valid = inner.valid() && belowUpper();
    }

    @Override
    public void seekToLast() {
        valid = false;
        if (upper != null) {
            inner.seek(upper.duplicate());
            if (inner.valid()) {
                inner.prev();
            } else {
                inner.seekToLast();
            }
        } else {
            inner.seekToLast();
        }
        valid = inner.valid() && atOrAboveLower();
    }

    @Override
    public void seek(ByteBuffer target) {
        valid = false;
        if (lower != null && ucmp.compare(target, lower) < 0) {
            inner.seek(lower.duplicate());
        } else {
            inner.seek(target);
        }
        valid = inner.valid() && belowUpper();
    }

    @Override
    public void next() {
        assert valid;
        valid = false;
        inner.next();
        valid = inner.valid() && belowUpper();
    }

    @Override
    public void prev() {
        assert valid;
        valid = false;
        inner.prev();
        valid = inner.valid() && atOrAboveLower();
    }

    @Override
    public ByteBuffer key() {
        assert valid;
        return inner.key();
    }

    @Override
    public ByteBuffer value() {
        assert valid;
        return inner.value();
    }

    @Override
    public void close() {
        valid = false;
        inner.close();
    }

    private boolean belowUpper() {
        return upper == null || ucmp.compare(inner.key(), upper) < 0;
    }

    private boolean atOrAboveLower() {
        return lower == null || ucmp.compare(inner.key(), lower) >= 0;
    }

    @Override
    public String toString() {
        return "BoundedIterator(" + inner + ")";
    }
}
