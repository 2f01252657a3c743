package dlproflint.reporters.io;

import dlproflint.io.ScratchFiles;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes a report so that readers see either the old file or the complete new one, never a
 * half-written file: the content goes to a temporary file in the same folder, which is then renamed.
 * That is right for regular files only: devices, FIFOs and descriptor aliases ({@code /dev/null},
 * {@code /dev/stdout}, a named pipe) are written in place, so they stay what they were (see
 * {@link OutputTarget}); a symbolic link is followed and the file it points to is replaced.
 * An error of the destination itself (disk full, a closed pipe) is reported as
 * {@link OutputWriteException}, naming the destination.
 */
public final class AtomicFiles {
    /** The longest file name most file systems accept (ext4, xfs, btrfs, tmpfs: 255 bytes). */
    public static final int MAX_NAME_BYTES = 255;
    /** What marks a report's temporary file as ours, between the report's name and the owner of the file. */
    static final String TEMP_MARK = "dlprof-lint-";
    /** Room for the mark, the owner ({@code p<pid>n<namespace>-}), {@code createTempFile}'s random number and {@code .tmp}. */
    private static final int TEMP_NAME_STEM_BYTES = MAX_NAME_BYTES - 80;

    private AtomicFiles() {
    }

    /** Something that writes the whole content to a stream. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    public static void write(Path target, Content content) throws IOException {
        write(target, content, BlockingTargets.DEFAULT_LIMIT);
    }

    /**
     * @param waitLimit how long a target that blocks (a named pipe nobody reads, a reader that stopped reading)
     *                  may keep the write waiting before it fails ({@link BlockingTargets})
     */
    public static void write(Path target, Content content, java.time.Duration waitLimit) throws IOException {
        OutputTarget t = OutputTarget.of(target);
        switch (t.kind()) {
            case FILE -> replace(t.path(), content);
            case STDOUT -> inPlace(target, standard(FileDescriptor.out), content);
            case STDERR -> inPlace(target, standard(FileDescriptor.err), content);
            // A descriptor alias is appended to: it may be a file the shell opened with '>>'.
            case DESCRIPTOR -> inPlace(target, BlockingTargets.open(target, t.path(), waitLimit, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND), content);
            case DEVICE -> inPlace(target, BlockingTargets.open(target, t.path(), waitLimit, StandardOpenOption.WRITE), content);
        }
    }

    /**
     * The temporary file is {@code .<name>.dlprof-lint-<owner><random>.tmp} ({@link ScratchFiles}): removed if the
     * run ends on SIGTERM or SIGINT before the rename, and, when a run was killed outright (SIGKILL, a crash), by
     * the next run that writes the same report.
     */
    private static void replace(Path abs, Content content) throws IOException {
        try (Staged staged = stageFile(abs, content)) {
            staged.commit();
        }
    }

    /**
     * Writes {@code content} for {@code target} without putting it in place yet, so that several reports can be
     * rendered first and published together: a regular file goes to its temporary file (renamed over the target by
     * {@link Staged#commit}); anything written in place (a device, a FIFO, a descriptor alias) is rendered into
     * memory and written at commit, within {@code waitLimit} ({@link BlockingTargets}). {@link Staged#close} removes
     * what was not committed.
     */
    public static Staged stage(Path target, Content content, java.time.Duration waitLimit) throws IOException {
        OutputTarget t = OutputTarget.of(target);
        if (t.kind() == OutputTarget.Kind.FILE) return stageFile(t.path(), content);
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        content.writeTo(buf);
        byte[] bytes = buf.toByteArray();
        return new Staged(null, null) {
            @Override
            public void commit() throws IOException {
                write(target, out -> out.write(bytes), waitLimit);
            }
        };
    }

    public static Staged stage(Path target, Content content) throws IOException {
        return stage(target, content, BlockingTargets.DEFAULT_LIMIT);
    }

    private static Staged stageFile(Path abs, Content content) throws IOException {
        Path dir = abs.getParent();
        String prefix = "." + stem(abs.getFileName().toString()) + "." + TEMP_MARK;
        ScratchFiles.cleanStale(dir, prefix);
        Path tmp = ScratchFiles.createFile(dir, prefix, ".tmp");
        Staged staged = new Staged(abs, tmp);
        try {
            try (OutputStream out = new Named(abs, Files.newOutputStream(tmp))) {
                content.writeTo(out);
            }
            keepPermissions(abs, tmp);
            return staged;
        } catch (IOException | RuntimeException | Error e) {
            staged.close();
            throw e;
        }
    }

    /** A report rendered and waiting to be put in place ({@link #stage}). */
    public static class Staged implements java.io.Closeable {
        private final Path target;
        private Path tmp;

        Staged(Path target, Path tmp) {
            this.target = target;
            this.tmp = tmp;
        }

        /** Puts the report in place: the temporary file renamed over the target (atomically where the file system can). */
        public void commit() throws IOException {
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            ScratchFiles.forget(tmp);
            tmp = null;
        }

        /** Removes the temporary file unless it was committed (a scratch file: the exit hook tries again if this fails). */
        @Override
        public void close() {
            if (tmp != null) ScratchFiles.delete(tmp);
            tmp = null;
        }
    }

    private static void inPlace(Path given, OutputStream raw, Content content) throws IOException {
        try (OutputStream out = new Named(given, raw)) {
            content.writeTo(out);
        }
    }

    /** The process's own descriptor, flushed after each report and never closed. */
    private static OutputStream standard(FileDescriptor fd) {
        (fd == FileDescriptor.out ? System.out : System.err).flush();
        return new FileOutputStream(fd) {
            @Override
            public void close() throws IOException {
                flush();
            }
        };
    }

    /**
     * The temporary file's name keeps the report's name as a prefix for whoever finds a leftover, cut so
     * that the whole name stays within {@link #MAX_NAME_BYTES} even for a report name close to it.
     */
    static String stem(String name) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= TEMP_NAME_STEM_BYTES) return name;
        int end = 0;
        int bytes = 0;
        while (end < name.length()) {
            int cp = name.codePointAt(end);
            int n = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + n > TEMP_NAME_STEM_BYTES) break;
            bytes += n;
            end += Character.charCount(cp);
        }
        return name.substring(0, end);
    }

    /** Reports are for sharing: a replaced file keeps its mode, a new one is rw-r--r-- (temp files are 0600). */
    private static void keepPermissions(Path target, Path tmp) throws IOException {
        if (Files.getFileAttributeView(tmp, PosixFileAttributeView.class) == null) return;
        Set<PosixFilePermission> perms = Files.exists(target)
                ? Files.getPosixFilePermissions(target) : PosixFilePermissions.fromString("rw-r--r--");
        Files.setPosixFilePermissions(tmp, perms);
    }

    /** Turns an error of the destination stream into one that names the destination (not the temporary file). */
    private static final class Named extends FilterOutputStream {
        private final Path target;

        Named(Path target, OutputStream out) {
            super(out);
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw new OutputWriteException(target, e);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw new OutputWriteException(target, e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw new OutputWriteException(target, e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                out.flush();
                out.close();
            } catch (IOException e) {
                throw new OutputWriteException(target, e);
            }
        }
    }
}
