package org.leveldbj.env;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A way of mapping a whole file into memory read-only and of unmapping it again. The JDK offers
 * no single supported way to unmap on every version this library runs on, so there are several;
 * {@link Mappers#best()} picks one once per JVM.
 *
 * <p>Thread safety: implementations are stateless and safe for concurrent use.
 */
interface Mapper {

    /**
     * Maps {@code size} bytes of a file, starting at offset 0, read-only.
     *
     * <p>Requires: {@code 0 < size <= Integer.MAX_VALUE}, {@code size} not past the end of the
     * file. The channel may be closed once this returns; the mapping outlives it.
     *
     * @param channel a channel open for reading
     * @param size how many bytes to map
     * @return the mapping
     * @throws IOException if the operating system refuses the mapping (address space, map count)
     */
    Mapping map(FileChannel channel, long size) throws IOException;

    /**
     * Tells whether {@link Mapping#unmap()} releases the memory at once; when it does not, the
     * garbage collector releases it when the buffer becomes unreachable.
     *
     * @return {@code true} for deterministic unmapping
     */
    boolean unmapsOnClose();

    /**
     * Names the mechanism, for log messages.
     *
     * @return a short name
     */
    String name();

    /**
     * One live mapping.
     *
     * <p>Thread safety: {@link #buffer()} may be called and the buffer read from any thread;
     * {@link #unmap()} is called exactly once, by the owner, when no thread reads any more.
     */
    interface Mapping {
        /**
         * Returns the mapped bytes.
         *
         * @return a read-only buffer, position 0, limit the mapped size
         */
        ByteBuffer buffer();

        /**
         * Releases the mapping. Touching the buffer or any view of it afterwards is a use after
         * free: depending on the mechanism it throws {@link IllegalStateException}, reads
         * whatever memory is now at that address, or crashes the JVM.
         */
        void unmap();
    }
}
