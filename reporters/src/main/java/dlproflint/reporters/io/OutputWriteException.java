package dlproflint.reporters.io;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

/**
 * Writing to an output failed at the destination (no space left on the device, a closed pipe, a
 * device that refuses writes), as opposed to a report that could not be produced. The message is one
 * line: {@code <destination>: <reason>}.
 */
public final class OutputWriteException extends IOException {
    private final Path target;

    public OutputWriteException(Path target, IOException cause) {
        super(target + ": " + reason(cause), cause);
        this.target = target;
    }

    /** A failure the destination's own state explains (a pipe nobody reads), with no I/O exception behind it. */
    public OutputWriteException(Path target, String reason) {
        this(target, new IOException(reason));
    }

    public Path target() {
        return target;
    }

    /** The reason alone, without the destination. */
    public String reason() {
        return reason((IOException) getCause());
    }

    private static String reason(IOException e) {
        if (e instanceof OutputWriteException w) return reason((IOException) w.getCause());
        if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason();
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
