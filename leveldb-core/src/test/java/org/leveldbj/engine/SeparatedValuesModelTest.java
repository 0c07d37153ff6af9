package org.leveldbj.engine;

import org.iq80.leveldb.Options;

/**
 * Every randomized model test of {@link DbModelTest} (operations with reopens, snapshots and
 * compactions; synced writes across crashes) on a database that keeps values of 30 bytes and
 * more in value files: about half the values of those tests.
 */
class SeparatedValuesModelTest extends DbModelTest {
    @Override
    Options options() {
        return super.options().valueThreshold(30);
    }
}
