package dlproflint.extract;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Says what is wrong with a file the user gave us to read (a profile, a configuration, a baseline)
 * before it is opened: opening a FIFO blocks until someone writes to it, and a device such as
 * {@code /dev/zero} or {@code /dev/urandom} reports size 0 but never ends. Only regular files (after
 * following links) are read; anything else gets a message that names what it is.
 */
public final class InputFiles {
    private InputFiles() {
    }

    /**
     * @param what what the file should be, for the message: {@code "profile"}, {@code "configuration file"}
     * @return null when {@code file} is a readable regular file, else the problem as a phrase
     *         ({@code "no such file"}, {@code "is a named pipe (FIFO), not a profile"}, ...)
     */
    public static String problem(Path file, String what) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return Files.isSymbolicLink(file) ? "is a dangling symbolic link" : "no such file";
        } catch (java.nio.file.FileSystemException e) {
            String reason = e.getReason() == null ? "" : e.getReason();
            if (reason.contains("symbolic links")) return "is a symbolic link that leads in a circle (a link loop)";
            if (reason.contains("File name too long")) return "its path is too long for the file system";
            return "cannot read: " + (reason.isEmpty() ? e.getClass().getSimpleName() : reason);
        } catch (IOException e) {
            return "cannot read: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
        if (a.isDirectory()) return "is a directory, not a " + what;
        if (!a.isRegularFile()) return "is " + kind(file) + ", not a " + what + " (only regular files are read)";
        if (!Files.isReadable(file)) return "permission denied";
        return null;
    }

    /** "a character device", "a named pipe (FIFO)", ... ({@link dlproflint.io.FileKind}). */
    static String kind(Path file) {
        return dlproflint.io.FileKind.of(file);
    }
}
