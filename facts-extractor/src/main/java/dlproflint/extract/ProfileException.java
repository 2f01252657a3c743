package dlproflint.extract;

import java.nio.file.Path;

/**
 * The profile cannot be used: not a supported format, truncated, corrupt. The CLI prints
 * {@code dlprof-lint: <file>: <message>} and exits 3; the message must be one line.
 */
public class ProfileException extends Exception {
    private final Path file;

    public ProfileException(Path file, String message) {
        super(message);
        this.file = file;
    }

    public ProfileException(Path file, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
    }

    public Path file() {
        return file;
    }
}
