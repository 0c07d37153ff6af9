package org.leveldbj.stress;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link Verifier} found in one database: the defects counted by kind, their descriptions
 * (the first few), the recovered state the next round starts from, and how many writes the
 * expected-state logs acknowledged. Not thread-safe; filled by one verifier, then read.
 */
final class Verification {
    /** How many defects are described; the counts go on. */
    private static final int MAX_DESCRIBED = 20;

    long lost;
    long orderViolations;
    long tornBatches;
    long badValues;
    long acknowledged;
    long acknowledgedSynced;
    /** Acknowledged writes made without the log (never required to survive). */
    long acknowledgedUnlogged;
    private final List<String> failures = new ArrayList<>();
    private ExpectedState recovered;

    boolean ok() {
        return lost + orderViolations + tornBatches + badValues == 0;
    }

    /** The defects described, first found first. */
    List<String> failures() {
        return failures;
    }

    /** The state the database holds (meaningful only when {@link #ok()}). */
    ExpectedState recovered() {
        return recovered;
    }

    void setRecovered(ExpectedState recovered) {
        this.recovered = recovered;
    }

    void lost(String description) {
        lost++;
        describe("lost acknowledged write: " + description);
    }

    void orderViolation(String description) {
        orderViolations++;
        describe("order violation: " + description);
    }

    void tornBatch(String description) {
        tornBatches++;
        describe("torn batch: " + description);
    }

    void badValue(String description) {
        badValues++;
        describe("bad value: " + description);
    }

    private void describe(String description) {
        if (failures.size() < MAX_DESCRIBED) {
            failures.add(description);
        }
    }
}
