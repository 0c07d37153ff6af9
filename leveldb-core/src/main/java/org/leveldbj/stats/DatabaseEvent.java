package org.leveldbj.stats;

import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;

/**
 * What every event of the engine carries: the directory of the database it happened in.
 * Subclasses are the events of {@code package-info}; each is filled and committed by the one
 * thread that made it.
 */
@Category("LevelDB")
abstract class DatabaseEvent extends Event {
    @Label("Directory")
    String directory;
}
