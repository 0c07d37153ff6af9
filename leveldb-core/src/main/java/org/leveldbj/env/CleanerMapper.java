package org.leveldbj.env;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Maps files as {@link MappedByteBuffer}s and unmaps them by running the buffer's cleaner through
 * {@code sun.misc.Unsafe.invokeCleaner}, the only way to unmap on JDK 17 to 21.
 *
 * <p>{@code sun.misc.Unsafe} is reached by reflection only: a direct reference makes javac print
 * a proprietary-API warning that no annotation suppresses. The module {@code jdk.unsupported}
 * opens {@code sun.misc}, so no command-line flag is needed. From JDK 24 on the JVM prints a
 * deprecation warning on the first call, which is why {@link Mappers#best()} prefers
 * {@link ForeignMapper} wherever it exists.
 *
 * <p>Unmapping is a use-after-free hazard: a buffer touched after {@link Mapping#unmap()} reads
 * unmapped memory and crashes the JVM. The owner must make sure no reader remains.
 *
 * <p>Thread safety: immutable; safe for concurrent use.
 */
final class CleanerMapper implements Mapper {
    /** {@code theUnsafe.invokeCleaner(ByteBuffer)}, bound to the instance. */
    private final MethodHandle invokeCleaner;

    private CleanerMapper(MethodHandle invokeCleaner) {
        this.invokeCleaner = invokeCleaner;
    }

    /**
     * Looks up {@code sun.misc.Unsafe.invokeCleaner}.
     *
     * @return the mapper, or {@code null} when the method cannot be reached
     */
    static CleanerMapper create() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            Object unsafe = theUnsafe.get(null);
            MethodHandle handle = MethodHandles.lookup()
                    .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
                    .bindTo(unsafe);
            return new CleanerMapper(handle);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    @Override
    public Mapping map(FileChannel channel, long size) throws IOException {
        assert size > 0 && size <= Integer.MAX_VALUE : "size=" + size;
        MappedByteBuffer buffer = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
        return new CleanerMapping(buffer);
    }

    @Override
    public boolean unmapsOnClose() {
        return true;
    }

    @Override
    public String name() {
        return "sun.misc.Unsafe.invokeCleaner";
    }

    /** A mapping unmapped through its cleaner. */
    private final class CleanerMapping implements Mapping {
        /** The buffer {@code FileChannel.map} returned; only it (not a view) has the cleaner. */
        private final MappedByteBuffer mapped;
        private final ByteBuffer readOnly;

        CleanerMapping(MappedByteBuffer mapped) {
            this.mapped = mapped;
            this.readOnly = mapped.asReadOnlyBuffer();
        }

        @Override
        public ByteBuffer buffer() {
            return readOnly;
        }

        @Override
        public void unmap() {
            try {
                invokeCleaner.invokeExact((ByteBuffer) mapped);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException("unexpected failure unmapping a buffer", e);
            }
        }
    }
}
