package dlproflint.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What a file that is not a regular file is, in words, for the one-line messages that refuse it. */
public final class FileKind {
    private FileKind() {
    }

    /** "a character device", "a named pipe (FIFO)", ... from the file mode where the platform exposes it. */
    public static String of(Path file) {
        try {
            int mode = (Integer) Files.getAttribute(file, "unix:mode");
            return switch (mode & 0170000) {
                case 0020000 -> "a character device";
                case 0060000 -> "a block device";
                case 0010000 -> "a named pipe (FIFO)";
                case 0140000 -> "a socket";
                default -> "a special file";
            };
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return "a special file";
        }
    }
}
