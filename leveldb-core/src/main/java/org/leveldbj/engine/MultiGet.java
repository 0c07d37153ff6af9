package org.leveldbj.engine;

import java.util.Arrays;
import java.util.List;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.key.PointLookup;
import org.leveldbj.table.TableReadOptions;

/**
 * {@code ExtendedDB.multiGet}: many point lookups at one sequence number in one pinned
 * {@link ReadView}. The keys are sorted (the caller's order is remembered, and a key given
 * twice is looked up once), each is looked up in the memtable and the immutable memtable, and
 * those these do not settle pass through the version's files together
 * ({@link org.leveldbj.version.Version#getAll}). Separated values are read while the view is
 * still pinned, as {@code get} does, so the value files they live in cannot be deleted
 * meanwhile. Each key counts as one lookup in the statistics, as a {@code get} would.
 *
 * <p>Thread safety: stateless; a call is confined to its thread and takes no lock.
 */
final class MultiGet {
    private MultiGet() {
    }

    /**
     * Looks keys up, as a loop of {@code get} at one sequence number would.
     *
     * <p>Requires: the database was open when {@code sequence} was read, before this is called
     * (see {@link ReadView} on why the order matters); no key is {@code null}.
     *
     * @param s the database
     * @param keys the keys, in the caller's order
     * @param sequence the newest sequence number to see
     * @param readOptions checksum and cache settings
     * @return the values in the order of {@code keys}, {@code null} where there is none
     */
    static List<byte[]> run(DbState s, byte[][] keys, long sequence, TableReadOptions readOptions) {
        int size = keys.length;
        if (size == 0) {
            return Arrays.asList(new byte[0][]);
        }
        KeyComparator ucmp = s.icmp.userComparator();
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> ucmp.compare(keys[a], keys[b]));
        // slot[i]: which lookup answers keys[i]; lookups[0..count) sorted, each key once.
        int[] slot = new int[size];
        PointLookup[] lookups = new PointLookup[size];
        int count = 0;
        for (int n = 0; n < size; n++) {
            int i = order[n];
            if (count == 0 || ucmp.compare(lookups[count - 1].userKey(), keys[i]) != 0) {
                PointLookup lookup = new PointLookup();
                lookup.start(keys[i], sequence);
                lookups[count++] = lookup;
            }
            slot[i] = count - 1;
        }
        byte[][] values = new byte[count][];
        boolean verifyValues = readOptions.verifyChecksums() || s.options.verifyChecksums();
        ReadView view = s.pinReadView();
        try {
            boolean unsettled = false;
            for (int n = 0; n < count; n++) {
                PointLookup lookup = lookups[n];
                if (!view.mem.get(lookup) && (view.imm == null || !view.imm.get(lookup))) {
                    unsettled = true;
                }
            }
            if (unsettled) {
                view.version.getAll(lookups, count, readOptions);
            }
            for (int n = 0; n < count; n++) {
                PointLookup lookup = lookups[n];
                if (lookup.state() == PointLookup.FOUND) {
                    // Read while the view is pinned: the value file outlives every version naming it.
                    values[n] = lookup.isReference() ? s.valueLog.read(lookup.value(), verifyValues) : lookup.value();
                }
            }
        } finally {
            view.unpin();
        }
        byte[][] result = new byte[size][];
        boolean[] handedOut = new boolean[count];
        for (int i = 0; i < size; i++) {
            int n = slot[i];
            byte[] value = values[n];
            if (value != null && handedOut[n]) {
                value = value.clone(); // a key given twice gets two arrays, as two gets would
            }
            handedOut[n] = true;
            result[i] = value;
            s.counters.countGet(value != null);
        }
        return Arrays.asList(result);
    }
}
