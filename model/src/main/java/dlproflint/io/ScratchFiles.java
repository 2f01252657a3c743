package dlproflint.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every temporary file or folder dlprof-lint makes: standard input spooled to a file, an {@code .nsys-rep}'s SQLite
 * export, a local copy of an SQLite profile, a report's temporary file beside its target. None may outlive the run:
 * <ul>
 *   <li>a normal end removes it ({@link #delete});</li>
 *   <li>SIGTERM, SIGINT (Ctrl-C) and {@code System.exit} run the JVM's shutdown hooks: one hook removes whatever is
 *       still registered;</li>
 *   <li>SIGKILL, a power cut or a JVM crash run nothing, so every name carries the process id and PID namespace
 *       that made it ({@code <prefix>p4711n4026531836-<random><suffix>}), and the next run that makes a file of the
 *       same kind in the same folder removes those whose process is gone ({@link #cleanStale}); a name from another
 *       PID namespace (another container sharing the folder) is removed only after {@link #FOREIGN_AGE} untouched.</li>
 * </ul>
 * Names are made by {@link Files#createTempFile} (owner-only permissions, a random part, never an existing name).
 */
public final class ScratchFiles {
    /** How long a scratch file of another PID namespace must lie untouched before a run here removes it. */
    public static final Duration FOREIGN_AGE = Duration.ofHours(24);

    private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();
    private static final long PID = ProcessHandle.current().pid();
    private static final String NAMESPACE = namespace();
    private static final Pattern OWNER = Pattern.compile("^p(\\d+)n(\\d+)-");
    private static volatile boolean hooked;

    private ScratchFiles() {
    }

    /** Where scratch files go: {@code TMPDIR} when it names a folder, else {@code java.io.tmpdir}. */
    public static Path root(Map<String, String> environment) {
        String tmp = environment == null ? null : environment.get("TMPDIR");
        if (tmp != null && !tmp.isBlank()) {
            try {
                Path p = Path.of(tmp);
                if (Files.isDirectory(p)) return p;
            } catch (InvalidPathException e) {
                // fall back to the JVM's temporary folder
            }
        }
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** The part of a scratch name after {@code prefix} that says which process made it. */
    static String owner() {
        return "p" + PID + "n" + NAMESPACE + "-";
    }

    /** A new empty file {@code <prefix><owner><random><suffix>} in {@code dir}, removed at exit unless {@link #delete}d first. */
    public static Path createFile(Path dir, String prefix, String suffix) throws IOException {
        hook();
        Path p = Files.createTempFile(dir, prefix + owner(), suffix);
        LIVE.add(p);
        return p;
    }

    /** A new empty folder {@code <prefix><owner><random>} in {@code dir}, removed with its content at exit. */
    public static Path createDirectory(Path dir, String prefix) throws IOException {
        hook();
        Path p = Files.createTempDirectory(dir, prefix + owner());
        LIVE.add(p);
        return p;
    }

    /** Registers a path made another way (a rename target) for removal at exit. */
    public static void register(Path p) {
        hook();
        LIVE.add(p);
    }

    /** No longer removes {@code p} at exit (it was renamed into place, or handed over). */
    public static void forget(Path p) {
        LIVE.remove(p);
    }

    /** Removes {@code p} (a folder with its content) now; quietly, as a leftover is cleaned later anyway. */
    public static void delete(Path p) {
        if (p == null) return;
        try {
            deleteTree(p);
            LIVE.remove(p);
        } catch (IOException | UncheckedIOException e) {
            // stays registered: the exit hook tries again
        }
    }

    /**
     * Removes the scratch files and folders named {@code prefix...} in {@code dir} that a process which no longer
     * runs left behind (killed with SIGKILL, or crashed).
     *
     * @return how many were removed
     */
    public static int cleanStale(Path dir, String prefix) {
        if (dir == null || !Files.isDirectory(dir)) return 0;
        int removed = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, p -> {
            Path n = p.getFileName();
            return n != null && n.toString().startsWith(prefix);
        })) {
            for (Path p : ds) {
                if (stale(p, p.getFileName().toString().substring(prefix.length()))) {
                    try {
                        deleteTree(p);
                        removed++;
                    } catch (IOException | UncheckedIOException e) {
                        // another run removed it first, or it is not ours to remove
                    }
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // an unreadable folder holds nothing we can clean
        }
        return removed;
    }

    private static boolean stale(Path p, String rest) {
        Matcher m = OWNER.matcher(rest);
        if (!m.find()) return false;
        long pid;
        try {
            pid = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            return false;
        }
        if (!m.group(2).equals(NAMESPACE)) {
            try {
                Instant modified = Files.getLastModifiedTime(p).toInstant();
                return modified.plus(FOREIGN_AGE).isBefore(Instant.now());
            } catch (IOException e) {
                return false;
            }
        }
        return pid != PID && ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true);
    }

    /** The inode of this process's PID namespace ({@code /proc/self/ns/pid -> pid:[4026531836]}), or 0. */
    private static String namespace() {
        try {
            String link = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
            String digits = link.replaceAll("\\D", "");
            return digits.isEmpty() ? "0" : digits;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return "0";
        }
    }

    private static void hook() {
        if (hooked) return;
        synchronized (ScratchFiles.class) {
            if (hooked) return;
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(ScratchFiles::removeAll, "dlprof-lint-scratch-cleanup"));
            } catch (IllegalStateException e) {
                // already shutting down: nothing new will be made
            }
            hooked = true;
        }
    }

    /** Removes everything still registered now (the exit hook; also a guard that must halt the JVM itself). */
    public static void removeAll() {
        for (Path p : LIVE.toArray(Path[]::new)) {
            try {
                deleteTree(p);
            } catch (IOException | UncheckedIOException e) {
                // nothing more can be done at exit; the next run's cleanStale removes it
            }
        }
        LIVE.clear();
    }

    private static void deleteTree(Path p) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return;
        }
        if (!a.isDirectory()) {
            Files.deleteIfExists(p);
            return;
        }
        Files.walkFileTree(p, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
