package dlproflint.reporters.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AtomicFilesTest {
    @TempDir
    Path dir;

    @Test
    void newReportIsWorldReadableAndComplete() throws IOException {
        Path p = dir.resolve("r.txt");
        AtomicFiles.write(p, out -> out.write("hello".getBytes(StandardCharsets.UTF_8)));
        assertEquals("hello", Files.readString(p));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)));
    }

    @Test
    void replacedReportKeepsItsMode() throws IOException {
        Path p = dir.resolve("r.txt");
        Files.writeString(p, "old");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-rw----"));
        AtomicFiles.write(p, out -> out.write("new".getBytes(StandardCharsets.UTF_8)));
        assertEquals("new", Files.readString(p));
        assertEquals("rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)));
    }

    @Test
    void failedWriteKeepsTheOldReportAndLeavesNoTempFile() throws IOException {
        Path p = dir.resolve("r.txt");
        Files.writeString(p, "old");
        assertThrows(IOException.class, () -> AtomicFiles.write(p, out -> {
            out.write("partial".getBytes(StandardCharsets.UTF_8));
            throw new IOException("disk full");
        }));
        assertEquals("old", Files.readString(p));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file left behind");
        }
    }
}
