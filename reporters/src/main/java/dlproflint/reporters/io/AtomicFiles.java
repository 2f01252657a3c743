package dlproflint.reporters.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes a report so that readers see either the old file or the complete new one, never a
 * half-written file: the content goes to a temporary file in the same folder, which is then renamed.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    /** Something that writes the whole content to a stream. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    public static void write(Path target, Content content) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        Path tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
        boolean done = false;
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                content.writeTo(out);
            }
            keepPermissions(abs, tmp);
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
            done = true;
        } finally {
            if (!done) Files.deleteIfExists(tmp);
        }
    }

    /** Reports are for sharing: a replaced file keeps its mode, a new one is rw-r--r-- (temp files are 0600). */
    private static void keepPermissions(Path target, Path tmp) throws IOException {
        if (Files.getFileAttributeView(tmp, PosixFileAttributeView.class) == null) return;
        Set<PosixFilePermission> perms = Files.exists(target)
                ? Files.getPosixFilePermissions(target) : PosixFilePermissions.fromString("rw-r--r--");
        Files.setPosixFilePermissions(tmp, perms);
    }
}
