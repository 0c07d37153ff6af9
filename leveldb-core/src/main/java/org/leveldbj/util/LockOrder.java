package org.leveldbj.util;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The lock-order checker, after Linux's lockdep: it records which {@link OrderedLock}s each
 * thread holds and fails at once, with both stacks, when a thread takes a lock whose
 * {@link LockRank} is not later than that of every lock it holds. A cycle of waits needs an
 * acquisition against the order somewhere, so a run that never violates the order cannot
 * deadlock on these locks; and the checker sees the violation on one thread, at the first
 * acquisition, without the unlucky timing a real deadlock needs.
 *
 * <p>On when the system property {@code leveldbj.lockOrderCheck} is {@code true} (the build sets
 * it for every test and {@code bin/crashtest} for its stress processes); off, it costs nothing:
 * {@link #ENABLED} is a constant and every check sits behind it. A violation is printed to
 * standard error, kept for {@link #takeViolations()} (the test extension fails the test that
 * caused it, even when a background thread hit it), and thrown as {@link LockOrderViolation}.
 * Every pair of ranks seen nested in order (held, then taken) is recorded too; with the property
 * {@code leveldbj.lockOrderReport} naming a file, each pair is appended to it the first time this
 * JVM sees it.
 *
 * <p>Thread safety: safe for concurrent use; each thread's held locks are its own.
 */
public final class LockOrder {
    /** Whether the order is checked: the system property {@code leveldbj.lockOrderCheck}. */
    public static final boolean ENABLED = Boolean.getBoolean("leveldbj.lockOrderCheck");

    private static final ThreadLocal<List<Held>> HELD = ThreadLocal.withInitial(ArrayList::new);
    private static final List<String> VIOLATIONS = new ArrayList<>();
    private static final Set<String> NESTINGS = ConcurrentHashMap.newKeySet();

    /** Where new nestings are appended as they are first seen, or {@code null}. */
    private static final Path REPORT = reportFile();

    private static Path reportFile() {
        String report = System.getProperty("leveldbj.lockOrderReport");
        return ENABLED && report != null && !report.isEmpty() ? Path.of(report) : null;
    }

    private LockOrder() {
    }

    /** A lock a thread holds, and where it took it. */
    private record Held(OrderedLock lock, Throwable takenAt) {
    }

    /**
     * Checks that the current thread may take a lock it does not hold. Requires: {@link #ENABLED}.
     *
     * @param lock the lock about to be taken
     * @throws LockOrderViolation if a lock held is of the same or a later rank
     */
    static void check(OrderedLock lock) {
        List<Held> held = HELD.get();
        for (Held h : held) {
            if (h.lock.rank().compareTo(lock.rank()) >= 0) {
                throw violation(h, lock);
            }
        }
        for (Held h : held) {
            String nesting = h.lock.rank() + " -> " + lock.rank();
            if (NESTINGS.add(nesting) && REPORT != null) {
                append(REPORT, nesting);
            }
        }
    }

    /** Records a lock the current thread has just taken for the first time. */
    static void acquired(OrderedLock lock) {
        HELD.get().add(new Held(lock, new Throwable("taken here")));
    }

    /** Forgets a lock the current thread has released for the last time. */
    static void released(OrderedLock lock) {
        List<Held> held = HELD.get();
        for (int i = held.size() - 1; i >= 0; i--) {
            if (held.get(i).lock == lock) {
                held.remove(i);
                return;
            }
        }
    }

    private static LockOrderViolation violation(Held held, OrderedLock taking) {
        Thread t = Thread.currentThread();
        String message = "lock order violation: thread \"" + t.getName() + "\" takes " + taking + " (rank "
                + number(taking.rank()) + ") while holding " + held.lock + " (rank " + number(held.lock.rank())
                + "); the order is doc/impl.md's lock table (org.leveldbj.util.LockRank)";
        LockOrderViolation error = new LockOrderViolation(message, held.takenAt);
        StringWriter text = new StringWriter();
        try (PrintWriter out = new PrintWriter(text)) {
            out.println(message);
            out.println("  the lock held was taken at:");
            for (StackTraceElement e : held.takenAt.getStackTrace()) {
                out.println("    at " + e);
            }
            out.println("  the lock is being taken at:");
            for (StackTraceElement e : error.getStackTrace()) {
                out.println("    at " + e);
            }
        }
        String report = text.toString();
        synchronized (VIOLATIONS) {
            VIOLATIONS.add(report);
        }
        System.err.print(report);
        return error;
    }

    /** A rank's number in doc/impl.md's lock table, which counts from 1. */
    static int number(LockRank rank) {
        return rank.ordinal() + 1;
    }

    /**
     * Returns the violations reported since the last call, and forgets them.
     *
     * @return each violation's report: the message and both stacks
     */
    public static List<String> takeViolations() {
        synchronized (VIOLATIONS) {
            List<String> taken = new ArrayList<>(VIOLATIONS);
            VIOLATIONS.clear();
            return taken;
        }
    }

    /**
     * The pairs of ranks seen nested so far (violations are reported, not recorded here).
     *
     * @return lines {@code "HELD -> TAKEN"}, sorted
     */
    public static Set<String> nestings() {
        return new TreeSet<>(NESTINGS);
    }

    /**
     * The ranks of the locks the current thread holds, oldest first.
     *
     * @return the ranks (empty when the checker is off)
     */
    public static List<LockRank> heldByCurrentThread() {
        List<LockRank> ranks = new ArrayList<>();
        for (Held h : HELD.get()) {
            ranks.add(h.lock.rank());
        }
        return ranks;
    }

    /**
     * Appends a nesting seen for the first time in this JVM, at once: a process killed later (the
     * crash test's) still leaves what it saw.
     */
    private static void append(Path file, String nesting) {
        try {
            Files.writeString(file, nesting + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the lock order report " + file, e);
        }
    }
}
