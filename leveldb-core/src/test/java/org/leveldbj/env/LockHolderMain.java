package org.leveldbj.env;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A child process for the cross-process lock tests: tries to lock the file named by its argument,
 * prints {@code locked} or {@code busy}, then holds whatever it got until its standard input ends.
 */
public final class LockHolderMain {
    private LockHolderMain() {
    }

    /**
     * Runs the child.
     *
     * @param args the lock file's path
     * @throws IOException if the file cannot be opened
     */
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            System.out.println(lock != null ? "locked" : "busy");
            System.out.flush();
            while (System.in.read() >= 0) {
                // Hold the lock until the parent closes our input.
            }
        }
    }
}
