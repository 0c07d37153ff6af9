package org.leveldbj.backup;

import java.util.Map;
import java.util.UUID;
import java.util.WeakHashMap;

/**
 * A random id for each open database backed up in this process, recorded in its backups' meta
 * files. While a database stays open its file numbers are never reused, its tables never change
 * and its value files only grow; so a file of the same name and size as one a backup of the same
 * session holds is that file. Across sessions (the database closed and opened again, or another
 * database made at the same path) nothing of the kind is known, and files are compared by
 * content.
 *
 * <p>Thread safety: safe for concurrent use (synchronized on the map).
 */
final class DatabaseSessions {
    private static final Map<Object, String> SESSIONS = new WeakHashMap<>();

    private DatabaseSessions() {
    }

    /**
     * The session of an open database: the same for one database object as long as it lives.
     *
     * @param database the open database
     * @return 32 lower-case hexadecimal digits
     */
    static String of(Object database) {
        synchronized (SESSIONS) {
            return SESSIONS.computeIfAbsent(database, d -> UUID.randomUUID().toString().replace("-", ""));
        }
    }
}
