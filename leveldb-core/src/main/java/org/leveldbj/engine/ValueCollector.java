package org.leveldbj.engine;

import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.iq80.leveldb.DBException;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.stats.ValueCollectionEvent;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;
import org.leveldbj.version.Version;
import org.leveldbj.version.VersionSet;
import org.leveldbj.vlog.ValueFileWriter;

/**
 * Gives back the space of overwritten and deleted separated values, on a thread apart from the
 * writers so that none ever waits for it: one thread ({@code leveldbj-values}) serves the
 * collectors of every database of the process, one look or pass at a time, and ends after
 * {@link #KEEP_ALIVE_SECONDS} seconds without a collector. A pass waits for the background
 * steps it asks for, on the database's background pool; the collectors' thread is not one of
 * the pool's, so a pool of one thread serves both.
 *
 * <p>What is garbage: a value file's bytes minus the bytes of its records that the current
 * tables refer to (the MANIFEST keeps that count, {@code VersionSet#valueFileLiveBytes}; a
 * compaction that drops an overwritten or deleted entry lowers it). Every
 * {@link #POLL_MILLIS} ms when the database changed (a new version, values written; once a
 * minute when idle), the collector looks at the value files no write is using; when some have
 * at least {@code garbageRatio} of their bytes in garbage, it names them to the value log
 * ({@link ValueLog#reclaim}) and rewrites every table ({@link DbImpl#compactEverything}): compactions
 * copy the values those files still hold to the current value file and point the tables at
 * the copies (same keys, same sequence numbers, so readers and snapshots see no change), and
 * the files, now referred to by nothing, are deleted by {@link ObsoleteFiles} once no reader
 * can reach them. With separated values the tables are small (references only), so a pass
 * costs little more than copying the live values.
 *
 * <p>The counts only know what compactions dropped: an overwritten value whose entry is still
 * in the memtable, or beside the newer entry in the same table, is not counted as garbage yet.
 * So once value bytes of at least {@code garbageRatio} of the value files (and at least the
 * tables' size) were written since the last pass, a pass runs without victims: it flushes the
 * memtable and rewrites every table, which drops those entries, and the next look sees the
 * garbage.
 *
 * <p>A file a pass could not empty (a value that cannot be read is left in place) is not
 * named again until the database is reopened.
 *
 * <p>Thread safety: {@link #close} from any thread; looks and {@link #collectOnce} are serialized
 * by this object's lock. Lifetime: started by the database when it opens with separation on or
 * marked; {@link #close} stops it and waits for a look or pass under way, before the database
 * releases its files.
 */
final class ValueCollector {
    /** This object's lock (doc/impl.md, Locks). */
    private final OrderedLock lock = new OrderedLock(LockRank.VALUE_COLLECTOR);
    /** How often the collector checks whether the database changed. */
    static final long POLL_MILLIS = 1000;
    /**
     * How many polls pass without a look while nothing changed (no new version, no value
     * written): an idle database is looked at once a minute, for files its last readers freed.
     */
    static final int IDLE_POLLS = 60;
    /** Seconds the collectors' thread waits for a collector before it ends. */
    static final long KEEP_ALIVE_SECONDS = 30;

    private final DbImpl db;
    private final DbState s;
    private final BackgroundWork background;
    private final double garbageRatio;
    /** The periodic look, once started. */
    private volatile ScheduledFuture<?> looks;
    private final Set<Long> stuck = new HashSet<>();
    // What the last look saw (the collectors' thread only, under the lock).
    private Version seen;
    private long written = -1;
    private int idle;
    /** The value bytes written when the last pass started. */
    private long writtenAtLastPass;
    /** Set by {@link #pick}: a pass without victims is due, to count the garbage. */
    private boolean discover;
    private volatile boolean closed;

    ValueCollector(DbImpl db, DbState s, BackgroundWork background, double garbageRatio) {
        this.db = db;
        this.s = s;
        this.background = background;
        this.garbageRatio = garbageRatio;
    }

    /** Starts the looks, every {@link #POLL_MILLIS} ms on the collectors' thread. */
    void start() {
        looks = Threads.INSTANCE.scheduleWithFixedDelay(this::look, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** The one thread of every database's collector, made at first use. */
    private static final class Threads {
        static final ScheduledThreadPoolExecutor INSTANCE = newExecutor();

        private static ScheduledThreadPoolExecutor newExecutor() {
            AtomicInteger count = new AtomicInteger();
            ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "leveldbj-values-" + count.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
            e.setRemoveOnCancelPolicy(true);
            e.setKeepAliveTime(KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
            e.allowCoreThreadTimeOut(true);
            return e;
        }
    }

    /**
     * Stops the collector and waits for a look or pass under way: a pass ends at its next
     * compaction step, the database being closed.
     */
    void close() {
        closed = true;
        ScheduledFuture<?> f = looks;
        if (f != null) {
            f.cancel(false);
        }
        lock.lock(); // waits for the look under way, if any; none starts after this
        lock.unlock();
    }

    /** A look on the collectors' thread: a pass when the database changed, or once a minute. */
    private void look() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            Version now;
            s.mutex.lock();
            try {
                now = s.versions.current();
            } finally {
                s.mutex.unlock();
            }
            long bytes = s.valueLog.bytesWritten();
            if (now == seen && bytes == written && ++idle < IDLE_POLLS) {
                return; // nothing changed: no directory listing
            }
            seen = now;
            written = bytes;
            idle = 0;
            collectOnce();
        } catch (DBException | IOException e) {
            if (!closed) {
                s.infoLog.log("reclaiming value files failed: %s", e);
            }
        } catch (RuntimeException | Error e) {
            // A periodic task that throws is never run again: log it and look again later.
            s.infoLog.log("reclaiming value files failed: %s", e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * One look: reclaims the files with enough garbage, if any.
     *
     * @return whether a pass ran
     * @throws IOException if the directory cannot be listed
     */
    boolean collectOnce() throws IOException {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            ValueCollectionEvent event = ValueCollectionEvent.start();
            // For the event only, when it is recorded: the files a pass deletes, and their sizes.
            Map<Long, Long> before = event.isEnabled() ? s.valueLog.fileSizes() : Map.of();
            Set<Long> victims = pick();
            if (victims.isEmpty() && !discover) {
                return false;
            }
            writtenAtLastPass = s.valueLog.bytesWritten();
            s.infoLog.log(victims.isEmpty() ? "Counting value-file garbage" : "Reclaiming value files %s", victims);
            s.valueLog.reclaim(victims);
            try {
                db.compactEverything();
            } finally {
                s.valueLog.reclaim(Set.of());
            }
            Set<Long> reclaimed = new HashSet<>();
            s.mutex.lock();
            try {
                Map<Long, Long> live = s.versions.valueFileLiveBytes();
                for (long victim : victims) {
                    if (live.containsKey(victim)) {
                        stuck.add(victim);
                    } else {
                        reclaimed.add(victim);
                    }
                }
            } finally {
                s.mutex.unlock();
            }
            background.sweepObsoleteFiles();
            recordPass(event, before, reclaimed);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records the pass's event: the value files it reclaimed, that is, those listed before it and
     * gone now, and its victims that nothing refers to any more (deleted once the last reader of
     * an older version lets go of them, perhaps after the pass).
     */
    private void recordPass(ValueCollectionEvent event, Map<Long, Long> before, Set<Long> reclaimed) throws IOException {
        int files = 0;
        long bytes = 0;
        if (event.isEnabled()) {
            Map<Long, Long> after = s.valueLog.fileSizes();
            for (Map.Entry<Long, Long> file : before.entrySet()) {
                if (!after.containsKey(file.getKey()) || reclaimed.contains(file.getKey())) {
                    files++;
                    bytes += file.getValue();
                }
            }
        }
        event.finish(s.dir.toString(), files, bytes);
    }

    /**
     * The value files, not in use by a write, with at least {@link #garbageRatio} garbage. The
     * count of a file only the memtables refer to is not known yet: when such files hold at
     * least that share of the value bytes, the memtable is flushed first, and the files are
     * looked at again at the next look.
     */
    private Set<Long> pick() throws IOException {
        Set<Long> victims = new HashSet<>();
        Map<Long, Long> live;
        MemTable mem;
        MemTable imm;
        long tableBytes = 0;
        s.mutex.lock();
        try {
            if (s.shuttingDown || s.hasBackgroundError()) {
                return victims;
            }
            live = s.versions.valueFileLiveBytes();
            mem = s.mem();
            imm = s.imm();
            Version v = s.versions.current();
            for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
                tableBytes += v.levelBytes(level);
            }
        } finally {
            s.mutex.unlock();
        }
        long valueBytes = 0;
        // Files nothing refers to any more go without a pass (their last readers may have
        // kept them after the compaction that dropped their references).
        background.sweepObsoleteFiles();
        for (Map.Entry<Long, Long> file : s.valueLog.fileSizes().entrySet()) {
            long number = file.getKey();
            if (stuck.contains(number) || s.valueLog.inUse(number)) {
                continue;
            }
            long records = file.getValue() - ValueFileWriter.HEADER_SIZE;
            long referenced = live.getOrDefault(number, 0L);
            valueBytes += Math.max(0, records);
            boolean inMemTables = mem != null && mem.mayReferToValueFile(number)
                    || imm != null && imm.mayReferToValueFile(number);
            if (!inMemTables && records > 0 && referenced > 0 && records - referenced >= garbageRatio * records) {
                victims.add(number);
            }
        }
        // The counts only know what compactions dropped: overwritten values whose entries sit
        // in the memtable or beside their newer entries in one table are not counted yet. Once
        // enough value bytes were written since the last pass, a pass without victims finds
        // out (it flushes the memtable and rewrites every table; the tables hold references
        // only, so it costs at most what was written).
        long written = s.valueLog.bytesWritten() - writtenAtLastPass;
        discover = victims.isEmpty() && valueBytes > 0 && written >= garbageRatio * valueBytes
                && written >= tableBytes;
        return victims;
    }
}
