package org.leveldbj.cli;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar on standard error, redrawn in place, for the long operations
 * (verify, compact, repair, export, import). It is drawn only when standard error is a terminal
 * and {@code --quiet} is not given; otherwise every method does nothing, so output that is
 * redirected or piped stays clean.
 *
 * <p>With a known total it shows a bar, the percentage and the amounts; without one, the amount
 * done so far (or, for operations that cannot measure their progress, a spinner) and the time
 * elapsed.
 *
 * <p>Thread safety: safe for concurrent use (a ticking bar is redrawn by its own thread).
 *
 * <p>Lifetime: {@link #close()} erases the line and stops the ticking thread.
 */
final class Progress implements AutoCloseable {
    /** What the amounts count. */
    enum Unit {
        BYTES, ENTRIES, NONE
    }

    private static final long REDRAW_NANOS = 100_000_000L;
    private static final int BAR_WIDTH = 30;
    private static final String SPINNER = "|/-\\";

    private final PrintStream err;
    private final boolean enabled;
    private final String label;
    private final long total;
    private final Unit unit;
    private final long startNanos = System.nanoTime();
    private Thread ticker;

    // Guarded by this.
    private long done;
    private long lastDrawNanos;
    private int lastLength;
    private int ticks;
    private boolean closed;

    private Progress(PrintStream err, boolean enabled, String label, long total, Unit unit) {
        this.err = err;
        this.enabled = enabled;
        this.label = label;
        this.total = total;
        this.unit = unit;
    }

    /**
     * Starts a progress bar.
     *
     * @param io the streams; drawn only when {@link Io#terminal()} is set
     * @param quiet {@code --quiet}: never drawn
     * @param label what is being done, e.g. {@code "verifying"}
     * @param total the amount at completion, or {@code -1} when unknown
     * @param unit what the amounts count
     * @return the bar
     */
    static Progress start(Io io, boolean quiet, String label, long total, Unit unit) {
        return new Progress(io.err(), io.terminal() && !quiet, label, total, unit);
    }

    /**
     * Starts a spinner for an operation that cannot measure its progress; it is redrawn by a
     * daemon thread four times a second until closed.
     *
     * @param io the streams
     * @param quiet {@code --quiet}
     * @param label what is being done
     * @return the spinner
     */
    static Progress ticking(Io io, boolean quiet, String label) {
        Progress p = start(io, quiet, label, -1, Unit.NONE);
        if (p.enabled) {
            p.ticker = new Thread(() -> {
                try {
                    while (!Thread.currentThread().isInterrupted()) {
                        p.tick();
                        Thread.sleep(250);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "leveldb-progress");
            p.ticker.setDaemon(true);
            p.ticker.start();
        }
        return p;
    }

    /** @return whether the bar is drawn at all */
    boolean enabled() {
        return enabled;
    }

    /** @return whether a thread of its own redraws this progress (a {@link #ticking} one that is drawn) */
    boolean hasTicker() {
        return ticker != null;
    }

    /**
     * Adds to the amount done.
     *
     * @param amount how much more is done
     */
    synchronized void add(long amount) {
        if (!enabled || closed) {
            return;
        }
        done += amount;
        long now = System.nanoTime();
        if (now - lastDrawNanos >= REDRAW_NANOS) {
            lastDrawNanos = now;
            draw(render());
        }
    }

    private synchronized void tick() {
        if (!closed) {
            ticks++;
            draw(render());
        }
    }

    /** The line as it is drawn now (without the carriage return). */
    synchronized String render() {
        long seconds = (System.nanoTime() - startNanos) / 1_000_000_000L;
        StringBuilder sb = new StringBuilder(label);
        if (total > 0) {
            double fraction = Math.min(1.0, (double) done / total);
            int filled = (int) Math.round(fraction * BAR_WIDTH);
            sb.append(" [").append("#".repeat(filled)).append("-".repeat(BAR_WIDTH - filled)).append(']');
            sb.append(String.format(Locale.ROOT, " %3d%% ", (int) (fraction * 100)));
            sb.append(amount(done)).append(" / ").append(amount(total));
        } else if (unit == Unit.NONE) {
            sb.append(' ').append(SPINNER.charAt(ticks % SPINNER.length()));
        } else {
            sb.append(' ').append(amount(done));
        }
        return sb.append(String.format(Locale.ROOT, "  %ds", seconds)).toString();
    }

    private String amount(long n) {
        switch (unit) {
            case BYTES:
                return bytes(n);
            case ENTRIES:
                return Plural.grouped(n, "entry");
            default:
                return Long.toString(n);
        }
    }

    /**
     * Renders a byte count for people: {@code 512 B}, {@code 1.5 KiB}, {@code 12.3 MiB}.
     *
     * @param n the byte count
     * @return the rendering
     */
    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double v = n;
        int i = -1;
        while (v >= 1024 && i < units.length - 1) {
            v /= 1024;
            i++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[i]);
    }

    private void draw(String line) {
        int pad = Math.max(0, lastLength - line.length());
        err.print("\r" + line + " ".repeat(pad));
        err.flush();
        lastLength = line.length();
    }

    /** Erases the line and stops the ticking thread. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            t = ticker;
            if (enabled && lastLength > 0) {
                err.print("\r" + " ".repeat(lastLength) + "\r");
                err.flush();
            }
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
