package dlproflint.extract.common;

import dlproflint.io.ScratchFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * The file SQLite is given for a profile. Usually the profile itself, opened immutable and read-only. Two profiles
 * cannot be read that way and get a private copy in the scratch folder instead ({@link ScratchFiles}), which the
 * profile's readers share and the last one to close removes:
 * <ul>
 *   <li><b>A database in WAL mode with a non-empty {@code -wal} file</b> beside it: its latest commits are in the WAL,
 *       which an immutable open ignores (an export copied while nsys still held it read as 0 kernels where
 *       {@code sqlite3} saw 59). Opening the original normally would write a {@code -shm} file beside it, so the
 *       database and its WAL are copied and the WAL checkpointed into the copy.</li>
 *   <li><b>A path longer than SQLite accepts</b> ({@value #SQLITE_MAX_PATH} bytes, its Unix limit, also reached through
 *       links and {@code /proc/self/fd}, which SQLite resolves): the file is hard-linked into the scratch folder where
 *       possible (no copy), else copied.</li>
 * </ul>
 * The profile itself is never opened for writing.
 */
public final class SqliteLocalCopy {
    /** SQLite's longest path on Unix (SQLITE_MAX_PATHNAME), with room for its own {@code -journal} suffix. */
    static final int SQLITE_MAX_PATH = 512 - 16;
    static final String PREFIX = "dlprof-lint-sqlite-";

    private record Shared(Path dir, Path file, int[] users) {
    }

    private static final Map<Path, Shared> OPEN = new HashMap<>();

    private SqliteLocalCopy() {
    }

    /** The file to open and how to give it back. */
    public record Lease(Path file, Runnable release) {
        boolean copied() {
            return release != NONE;
        }
    }

    private static final Runnable NONE = () -> { };

    /** Where SQLite should read {@code profile} from; {@link Lease#release()} when the connection closes. */
    public static Lease lease(Path profile) throws SQLException {
        Path abs = profile.toAbsolutePath();
        boolean wal = hasWal(abs);
        boolean longPath = abs.toString().getBytes(StandardCharsets.UTF_8).length > SQLITE_MAX_PATH;
        if (!wal && !longPath) return new Lease(abs, NONE);
        Path key;
        try {
            key = abs.toRealPath();
        } catch (IOException e) {
            key = abs;
        }
        synchronized (OPEN) {
            Shared s = OPEN.get(key);
            if (s == null) {
                s = make(abs, wal);
                OPEN.put(key, s);
            }
            s.users()[0]++;
            Shared held = s;
            Path k = key;
            return new Lease(s.file(), () -> release(k, held));
        }
    }

    private static void release(Path key, Shared s) {
        synchronized (OPEN) {
            if (--s.users()[0] > 0) return;
            OPEN.remove(key);
        }
        ScratchFiles.delete(s.dir());
    }

    private static boolean hasWal(Path db) {
        try {
            Path wal = db.resolveSibling(db.getFileName() + "-wal");
            return Files.isRegularFile(wal) && Files.size(wal) > 0;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static Shared make(Path profile, boolean wal) throws SQLException {
        Path root = ScratchFiles.root(System.getenv());
        ScratchFiles.cleanStale(root, PREFIX);
        Path dir = null;
        try {
            dir = ScratchFiles.createDirectory(root, PREFIX);
            Path copy = dir.resolve("profile.sqlite");
            if (wal) {
                Files.copy(profile, copy, StandardCopyOption.COPY_ATTRIBUTES);
                Files.copy(profile.resolveSibling(profile.getFileName() + "-wal"), dir.resolve("profile.sqlite-wal"));
                checkpoint(copy);
            } else {
                try {
                    Files.createLink(copy, profile);
                } catch (IOException | UnsupportedOperationException e) {
                    Files.copy(profile, copy);
                }
            }
            return new Shared(dir, copy, new int[1]);
        } catch (IOException e) {
            ScratchFiles.delete(dir);
            throw new SQLException("cannot make a local copy to read it from (" + (wal ? "its newest rows are in its -wal file"
                    : "its path is longer than SQLite's " + (SQLITE_MAX_PATH + 16) + " bytes") + ") in " + root
                    + " (set TMPDIR to a writable folder with room for it): " + e.getMessage(), e);
        } catch (SQLException e) {
            ScratchFiles.delete(dir);
            throw e;
        }
    }

    /** Moves the copied WAL's commits into the copied database (the copy is ours to write). */
    private static void checkpoint(Path copy) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement st = c.createStatement()) {
            st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            st.execute("PRAGMA journal_mode = DELETE");
        }
    }
}
