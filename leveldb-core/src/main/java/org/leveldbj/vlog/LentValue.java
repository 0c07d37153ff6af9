package org.leveldbj.vlog;

import java.nio.ByteBuffer;

/**
 * A separated value lent in place: a view of its bytes where the value file's reader has them
 * (mapped, for the default environment), and the action that gives the reader back. The value
 * file stays open, and its bytes readable, until {@link #release()} has run; run it exactly once,
 * and read the view no more afterwards.
 *
 * <p>Thread safety: the view is for the thread the value was lent to; the release may run on
 * any thread.
 *
 * @param value a read-only view whose remaining bytes are the value
 * @param release gives the reader back
 */
public record LentValue(ByteBuffer value, Runnable release) {
}
