package org.leveldbj.stats;

import java.util.function.Supplier;
import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** {@code org.leveldbj.Compaction}: one compaction step, or a trivial move. */
@Name("org.leveldbj.Compaction")
@Label("Compaction")
@Category("LevelDB")
@Description("Tables of one level merged into the next, or a table moved there")
public final class CompactionEvent extends DatabaseEvent {
    @Label("Level")
    @Description("The level of the first inputs")
    int level;

    @Label("Output Level")
    int outputLevel;

    @Label("Input Files")
    @Description("Input tables of the level")
    int inputFiles;

    @Label("Input Files of the Next Level")
    int nextLevelInputFiles;

    @Label("Input File Numbers")
    @Description("The numbers of the input tables, level's first, separated by spaces")
    String inputFileNumbers;

    @Label("Output Files")
    int outputFiles;

    @Label("Bytes Read")
    @DataAmount
    long bytesRead;

    @Label("Bytes Written")
    @DataAmount
    long bytesWritten;

    @Label("Reason")
    @Description("size, seek, manual or trivial-move")
    String reason;

    private CompactionEvent() {
    }

    /**
     * Starts timing a compaction.
     *
     * @return the event, begun
     */
    public static CompactionEvent start() {
        CompactionEvent e = new CompactionEvent();
        e.begin();
        return e;
    }

    /**
     * Ends the compaction and records it if the event is enabled.
     *
     * @param dir the database directory
     * @param inputLevel the level of the first inputs
     * @param inputs tables of that level
     * @param nextInputs tables of the next level
     * @param numbers the input tables' numbers, computed only when recorded
     * @param outputs tables written
     * @param read bytes of the inputs
     * @param written bytes of the outputs
     * @param why the reason
     */
    public void finish(String dir, int inputLevel, int inputs, int nextInputs, Supplier<String> numbers, int outputs,
                       long read, long written, CompactionReason why) {
        end();
        if (shouldCommit()) {
            directory = dir;
            level = inputLevel;
            outputLevel = inputLevel + 1;
            inputFiles = inputs;
            nextLevelInputFiles = nextInputs;
            inputFileNumbers = numbers.get();
            outputFiles = outputs;
            bytesRead = read;
            bytesWritten = written;
            reason = why.label();
            commit();
        }
    }
}
