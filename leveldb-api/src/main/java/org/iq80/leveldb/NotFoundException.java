package org.iq80.leveldb;

/**
 * A file the open database needs is missing: C++ LevelDB's "NotFound" status for a file (a
 * table the MANIFEST lists was deleted or moved away behind the database's back). A key that is
 * not in the database is not an error: {@code get} returns {@code null}.
 *
 * <p>C++ LevelDB keeps NotFound apart from "IO error"; here it is a kind of
 * {@link IOErrorException}, so that code catching I/O errors keeps catching it, and the message
 * keeps its {@code "IO error: <file>: ..."} text. This is an extension of the 0.12 API.
 */
public class NotFoundException extends IOErrorException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     *
     * @param message the status text, naming the missing file
     * @param cause the file system's exception, or {@code null}
     */
    public NotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
