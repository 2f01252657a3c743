package dlproflint.reporters.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Where an output path really leads, decided before anything is written:
 * <ul>
 *   <li>{@link Kind#FILE}: a regular file, or a name that does not exist yet, in an existing folder. It is
 *       replaced atomically (temporary file + rename, {@link AtomicFiles}).</li>
 *   <li>{@link Kind#DEVICE}: a character or block device, a FIFO or a socket ({@code /dev/null}, a named
 *       pipe). Renaming over it would replace the device node with a regular file (as root) or fail, so
 *       it is opened and written in place.</li>
 *   <li>{@link Kind#STDOUT}, {@link Kind#STDERR}, {@link Kind#DESCRIPTOR}: an alias of an open file
 *       descriptor of this process ({@code /dev/stdout}, {@code /dev/stderr}, {@code /dev/fd/N},
 *       {@code /proc/self/fd/N}). Written to the descriptor itself, never renamed over and never
 *       truncated, whatever the descriptor points to (a terminal, a pipe, or a file opened with {@code >>}).</li>
 * </ul>
 * Symbolic links are followed (at most {@value #MAX_LINKS}): a link to a regular file has the file it points
 * to replaced atomically and stays a link; a dangling link creates the file it names. The path is given
 * as the user typed it (absolute or relative to the working directory).
 *
 * @param path where the bytes go: the final target after following links (for descriptors, the alias)
 */
public record OutputTarget(Path path, Kind kind) {
    /** What kind of thing the output path designates. */
    public enum Kind { FILE, DEVICE, STDOUT, STDERR, DESCRIPTOR }

    /** Linux's limit (ELOOP); a longer chain is refused, as the kernel would. */
    public static final int MAX_LINKS = 40;

    /** Written in place rather than through a temporary file and a rename. */
    public boolean direct() {
        return kind != Kind.FILE;
    }

    /**
     * Classifies {@code given} without writing or creating anything.
     *
     * @throws IOException the path is a folder, a loop of links, or the file system refuses the name
     *                     (e.g. {@code File name too long}); the message names the path and the reason
     */
    public static OutputTarget of(Path given) throws IOException {
        Path p = given.toAbsolutePath();
        for (int hop = 0; hop <= MAX_LINKS; hop++) {
            OutputTarget descriptor = descriptorAlias(p);
            if (descriptor != null) return descriptor;
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                checkNameLength(p);
                return new OutputTarget(p, Kind.FILE);
            } catch (FileSystemException e) {
                throw new FileSystemException(given.toString(), null, reason(e));
            }
            if (a.isSymbolicLink()) {
                Path target = Files.readSymbolicLink(p);
                Path parent = p.getParent();
                p = parent == null ? target : realOrSelf(parent).resolve(target);
                continue;
            }
            if (a.isDirectory()) throw new FileSystemException(given.toString(), null, "is a folder, not a file");
            return new OutputTarget(p, a.isRegularFile() ? Kind.FILE : Kind.DEVICE);
        }
        throw new FileSystemException(given.toString(), null, "too many levels of symbolic links");
    }

    /**
     * A path inside {@code /proc/<this process>/fd} (which {@code /dev/fd}, {@code /dev/stdout} and
     * {@code /proc/self/fd} resolve to) names one of our own descriptors; one of another process's
     * {@code /proc/<pid>/fd} is written in place like a device.
     */
    private static OutputTarget descriptorAlias(Path p) {
        Path parent = p.getParent();
        if (parent == null || p.getFileName() == null) return null;
        Path real = realOrSelf(parent);
        if (!real.startsWith("/proc") || real.getFileName() == null || !real.getFileName().toString().equals("fd")) return null;
        Path owner = real.getParent() == null ? null : real.getParent().getFileName();
        boolean ours = owner != null && (owner.toString().equals("self")
                || owner.toString().equals(Long.toString(ProcessHandle.current().pid())));
        String fd = p.getFileName().toString();
        if (ours && fd.equals("1")) return new OutputTarget(p, Kind.STDOUT);
        if (ours && fd.equals("2")) return new OutputTarget(p, Kind.STDERR);
        return new OutputTarget(p, Kind.DESCRIPTOR);
    }

    private static Path realOrSelf(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }

    /**
     * Most file systems allow 255 bytes per name. The check runs before any (long) profile read, so a
     * report name that can never be created is refused at once rather than after the extraction.
     */
    private static void checkNameLength(Path p) throws FileSystemException {
        Path name = p.getFileName();
        if (name == null) return;
        int bytes = name.toString().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > AtomicFiles.MAX_NAME_BYTES) {
            throw new FileSystemException(p.toString(), null, "file name is " + bytes + " bytes long; the limit is "
                    + AtomicFiles.MAX_NAME_BYTES);
        }
    }

    private static String reason(FileSystemException e) {
        return e.getReason() != null ? e.getReason() : e.getClass().getSimpleName();
    }
}
