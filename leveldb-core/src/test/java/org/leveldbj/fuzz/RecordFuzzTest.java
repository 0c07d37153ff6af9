package org.leveldbj.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.engine.WriteBatchImpl;
import org.leveldbj.version.VersionEdit;

/**
 * Fuzzes the decoders of the two kinds of log record: a MANIFEST record ({@link VersionEdit})
 * and a write-ahead log record ({@link WriteBatchImpl}).
 *
 * <p>Inputs: one record, with no header.
 */
@ExtendWith(FuzzEnvironment.class)
class RecordFuzzTest {
    /**
     * {@link VersionEdit#decode} documents {@link CorruptionException} for malformed bytes and
     * nothing else; a decoded edit encodes to bytes that decode to an equal edit.
     */
    @FuzzTest(maxDuration = "30s")
    void versionEdit(byte[] input) {
        VersionEdit edit;
        try {
            edit = VersionEdit.decode(ByteBuffer.wrap(input));
        } catch (CorruptionException e) {
            FuzzFiles.checkReport(e, null);
            return;
        }
        byte[] encoded = edit.encode();
        assertEquals(edit, VersionEdit.decode(encoded), "an edit does not survive re-encoding");
        edit.toString();
    }

    /**
     * {@link WriteBatchImpl#setContents} and {@link WriteBatchImpl#forEach} document
     * {@link CorruptionException} for a short header, a malformed record or a wrong count, and
     * nothing else; every key and value handed to the handler lies inside the batch, and a
     * batch that decodes holds as many records as its header says.
     */
    @FuzzTest(maxDuration = "30s")
    void writeBatch(byte[] input) {
        WriteBatchImpl batch = new WriteBatchImpl();
        try {
            batch.setContents(ByteBuffer.wrap(input));
        } catch (CorruptionException e) {
            FuzzFiles.checkReport(e, null);
            assertTrue(input.length < WriteBatchImpl.HEADER_SIZE);
            return;
        }
        int[] records = new int[1];
        try {
            batch.forEach(new WriteBatchImpl.Handler() {
                @Override
                public void put(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength) {
                    inside(keyOffset, keyLength);
                    inside(valueOffset, valueLength);
                    records[0]++;
                }

                @Override
                public void delete(byte[] data, int keyOffset, int keyLength) {
                    inside(keyOffset, keyLength);
                    records[0]++;
                }

                private void inside(int offset, int length) {
                    assertTrue(offset >= WriteBatchImpl.HEADER_SIZE && length >= 0 && offset + length <= input.length,
                            () -> "slice [" + offset + ", +" + length + ") outside a " + input.length + "-byte batch");
                }
            });
        } catch (CorruptionException e) {
            FuzzFiles.checkReport(e, null);
            return;
        }
        assertEquals(batch.size(), records[0]);
        assertEquals(input.length, batch.approximateSize());
    }
}
