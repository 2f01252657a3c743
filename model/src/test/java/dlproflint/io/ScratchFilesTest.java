package dlproflint.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScratchFilesTest {
    @TempDir
    Path dir;

    @Test
    void namesCarryTheirOwnerAndOnlyDeadOwnersAreCleaned() throws Exception {
        Path mine = ScratchFiles.createFile(dir, "dlprof-lint-x-", ".tmp");
        assertTrue(mine.getFileName().toString().startsWith("dlprof-lint-x-" + ScratchFiles.owner()), mine.toString());
        // a process that surely ended: one we start and wait for
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        String ns = ScratchFiles.owner().replaceAll("^p\\d+n(\\d+)-$", "$1");
        Path dead = Files.createFile(dir.resolve("dlprof-lint-x-p" + p.pid() + "n" + ns + "-123.tmp"));
        Path deadFolder = Files.createDirectories(dir.resolve("dlprof-lint-x-p" + p.pid() + "n" + ns + "-456"));
        Files.writeString(deadFolder.resolve("inner"), "x");
        Path alive = Files.createFile(dir.resolve("dlprof-lint-x-p" + ProcessHandle.current().parent().orElseThrow().pid() + "n" + ns + "-9.tmp"));
        Path foreignNew = Files.createFile(dir.resolve("dlprof-lint-x-p1n999-1.tmp"));
        Path foreignOld = Files.createFile(dir.resolve("dlprof-lint-x-p1n998-1.tmp"));
        Files.setLastModifiedTime(foreignOld, FileTime.from(Instant.now().minus(ScratchFiles.FOREIGN_AGE).minusSeconds(60)));
        Path other = Files.createFile(dir.resolve("unrelated-p1n1-1.tmp"));

        assertEquals(3, ScratchFiles.cleanStale(dir, "dlprof-lint-x-"));
        assertFalse(Files.exists(dead));
        assertFalse(Files.exists(deadFolder));
        assertFalse(Files.exists(foreignOld));
        assertTrue(Files.exists(mine) && Files.exists(alive) && Files.exists(foreignNew) && Files.exists(other));

        ScratchFiles.delete(mine);
        assertFalse(Files.exists(mine));
    }

    @Test
    void theExitHookRemovesWhatIsStillRegistered() throws Exception {
        Path folder = ScratchFiles.createDirectory(dir, "dlprof-lint-y-");
        Files.writeString(folder.resolve("a"), "a");
        Path file = ScratchFiles.createFile(dir, "dlprof-lint-y-", ".tmp");
        ScratchFiles.removeAll();
        assertFalse(Files.exists(folder));
        assertFalse(Files.exists(file));
    }

    @Test
    void theRootIsTmpdirWhenItIsAFolder() {
        assertEquals(dir, ScratchFiles.root(Map.of("TMPDIR", dir.toString())));
        assertEquals(Path.of(System.getProperty("java.io.tmpdir")), ScratchFiles.root(Map.of("TMPDIR", dir.resolve("nope").toString())));
        assertEquals(Path.of(System.getProperty("java.io.tmpdir")), ScratchFiles.root(Map.of()));
    }
}
