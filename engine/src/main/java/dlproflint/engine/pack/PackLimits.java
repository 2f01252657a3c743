package dlproflint.engine.pack;

import dlproflint.engine.RuleLoadException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * What a site rule pack folder may hold, checked before a byte of it is read: regular files only (a named pipe would
 * block the read for ever, {@code /dev/zero} would never end), at most {@link #MAX_FILE_BYTES} each, {@link #MAX_FILES}
 * files and {@link #MAX_PACK_BYTES} in all. A pack is a handful of small text files; anything else is a mistake or a
 * trap, and is refused naming the file.
 */
final class PackLimits {
    static final int MAX_DEPTH = 8;
    static final int MAX_FILES = 1_000;
    static final long MAX_FILE_BYTES = 1L << 20;
    static final long MAX_PACK_BYTES = 16L << 20;

    private final Path root;
    private int files;
    private long bytes;

    PackLimits(Path root) {
        this.root = root;
    }

    /** Refuses {@code p} when it is not a regular file, or when the pack grows past its limits. */
    void admit(Path p) throws RuleLoadException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new RuleLoadException(p.toString(), 0, Files.isSymbolicLink(p) ? "is a dangling symbolic link in a rule pack"
                    : "disappeared while the rule pack was read");
        } catch (IOException e) {
            throw new RuleLoadException(p.toString(), 0, "cannot read rule pack file: " + e.getMessage());
        }
        if (!a.isRegularFile()) {
            throw new RuleLoadException(p.toString(), 0, "is " + kind(p) + ", not a rule pack file: a pack holds regular "
                    + "files only (its .drl, .md and .cases.yaml files and pack.yaml)");
        }
        if (a.size() > MAX_FILE_BYTES) {
            throw new RuleLoadException(p.toString(), 0, "rule pack file of " + a.size() + " bytes; at most "
                    + (MAX_FILE_BYTES >> 20) + " MiB per file are read");
        }
        if (++files > MAX_FILES) {
            throw new RuleLoadException(root.toString(), 0, "rule pack of more than " + MAX_FILES + " files");
        }
        bytes += a.size();
        if (bytes > MAX_PACK_BYTES) {
            throw new RuleLoadException(root.toString(), 0, "rule pack of more than " + (MAX_PACK_BYTES >> 20) + " MiB");
        }
    }

    /** The file's bytes, at most {@link #MAX_FILE_BYTES} (it may have grown since {@link #admit}). */
    byte[] read(Path p) throws IOException, RuleLoadException {
        try (InputStream in = Files.newInputStream(p)) {
            byte[] b = in.readNBytes((int) MAX_FILE_BYTES + 1);
            if (b.length > MAX_FILE_BYTES) {
                throw new RuleLoadException(p.toString(), 0, "rule pack file grew past " + (MAX_FILE_BYTES >> 20) + " MiB while read");
            }
            return b;
        }
    }

    private static String kind(Path file) {
        return dlproflint.io.FileKind.of(file);
    }
}
