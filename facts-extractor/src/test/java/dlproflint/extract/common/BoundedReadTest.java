package dlproflint.extract.common;

import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17 item 2: no read can hang. Every SQLite query runs under the read deadline's progress handler;
 * views standing in for the tables a reader queries are refused; FIFOs and devices are refused before
 * anything opens them. The timeouts only guard against a hang.
 */
@org.junit.jupiter.api.Tag("hostile")
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BoundedReadTest {
    private static final String ENDLESS = "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)";

    @TempDir
    Path dir;

    private Path copy(String corpus, String name, String... sql) throws Exception {
        Path p = dir.resolve(name);
        Files.copy(Corpus.file(corpus), p, StandardCopyOption.REPLACE_EXISTING);
        p.toFile().setWritable(true);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + p); Statement st = c.createStatement()) {
            for (String s : sql) st.execute(s);
        }
        return p;
    }

    private static String refusal(Path p, ReadOptions options) {
        long t0 = System.nanoTime();
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileReaders.discover().read(p, options));
        // "quickly" against the read limits of minutes this replaces; generous for a loaded 2-core machine
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(120).toNanos(), "refused quickly");
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        return e.getMessage();
    }

    @Test
    void anEndlessQueryIsStoppedByTheDeadline() throws Exception {
        Path p = copy("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite", "any.sqlite");
        ReadDeadline deadline = ReadDeadline.start(p, ReadOptions.DEFAULT.withReadTimeLimit(Duration.ofMillis(300)));
        long t0 = System.nanoTime();
        try (Connection c = ReadOnlySqlite.open(p, deadline); Statement st = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(ENDLESS + " SELECT count(*) FROM r").next());
            assertTrue(ReadOnlySqlite.interrupted(e), e.getMessage());
        }
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(60).toNanos(), "stopped by the deadline, not run to its end");
    }

    @Test
    void aReadOverItsTimeLimitIsRefusedWithTheLimit() throws Exception {
        Path p = copy("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite", "slow.sqlite");
        String msg = refusal(p, ReadOptions.DEFAULT.withReadTimeLimit(Duration.ofMillis(1)));
        assertTrue(msg.startsWith("reading stopped at the time limit of 1 ms for this file"), msg);
    }

    @Test
    void nsysTablesThatAreViewsAreRefused() throws Exception {
        for (String table : List.of("CUPTI_ACTIVITY_KIND_KERNEL", "StringIds", "NVTX_EVENTS")) {
            Path p = copy("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite", "view-" + table + ".sqlite",
                    "ALTER TABLE " + table + " RENAME TO real_rows",
                    "CREATE VIEW " + table + " AS " + ENDLESS + " SELECT real_rows.* FROM real_rows, r");
            String msg = refusal(p, ReadOptions.DEFAULT);
            assertTrue(msg.startsWith(table + " is a view, not a table"), msg);
        }
    }

    @Test
    void dlprofTablesThatAreViewsAreRefusedAndItsOwnViewsAreNot() throws Exception {
        Path p = copy("mohanadodema-dlprof/w_Relu/dlprof_dldb_1.sqlite", "view-op-nodes.sqlite",
                "ALTER TABLE op_nodes RENAME TO real_rows",
                "CREATE VIEW op_nodes AS " + ENDLESS + " SELECT real_rows.* FROM real_rows, r");
        assertTrue(refusal(p, ReadOptions.DEFAULT).startsWith("op_nodes is a view, not a table"));
        Path own = copy("mohanadodema-dlprof/w_Relu/dlprof_dldb_1.sqlite", "own-views.sqlite");
        try (Connection c = ReadOnlySqlite.open(own)) {
            assertFalse(ReadOnlySqlite.views(c).isEmpty(), "DLProf writes view_* views");
        }
        ProfileReaders.discover().read(own, ReadOptions.DEFAULT);
    }

    @Test
    void fifosAndDevicesAreRefusedBeforeTheyAreOpened() throws Exception {
        Path fifo = dir.resolve("trace.json");
        assertTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0);
        assertTrue(refusal(fifo, ReadOptions.DEFAULT).equals("is a named pipe (FIFO), not a profile (only regular files are read)"));
        for (String dev : List.of("/dev/urandom", "/dev/zero", "/dev/null")) {
            String msg = refusal(Path.of(dev), ReadOptions.DEFAULT);
            assertTrue(msg.startsWith("is a character device, not a profile"), dev + ": " + msg);
        }
        assertTrue(refusal(dir, ReadOptions.DEFAULT).startsWith("is a directory"));
    }
}
