package dlproflint.extract.nsys;

import dlproflint.extract.ProfileReaders;
import dlproflint.synth.Workload;
import dlproflint.synth.WorkloadSpec;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Profiles are opened read-only and never modified (issue 2 item 2): after a read the file's SHA-256, size and
 * mtime are unchanged and no {@code -journal}, {@code -wal} or {@code -shm} file (or any other file) appeared
 * beside it — for the real corpus exports in place, and for a generated export in a folder without write
 * permission. Tests usually run as root, which ignores permission bits, so the last case also makes the
 * file and folder immutable with {@code chattr +i}, which binds root too; where chattr is unavailable
 * (not root, no ext4/xfs) that case is skipped and the 0444/0555 case is the proof.
 */
class ReadOnlyProofTest {
    private static final List<String> CORPUS_NSYS = List.of(
            "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite",
            "mohanadodema-dlprof/root/nsys_profile.sqlite",
            "cutlass-bench-nsys2023/report1.sqlite",
            "cuda-perf-sandbox-nsys2025/report1.sqlite",
            "uvmtorch-nsys2025/report1.sqlite",
            "llama3-inference-nsys2024/real_inference_simulation.sqlite",
            "dynamicvit-dlprof-empty/nsys_profile.sqlite");

    @TempDir
    Path dir;

    /** What must not change: content hash, size, mtime, and the names in the folder. */
    record Snapshot(String sha256, long size, FileTime mtime, Set<String> siblings) {
        static Snapshot of(Path file) throws Exception {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            try (InputStream in = Files.newInputStream(file)) {
                byte[] buf = new byte[1 << 16];
                for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
            }
            Set<String> names;
            try (Stream<Path> s = Files.list(file.getParent())) {
                names = s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
            }
            return new Snapshot(HexFormat.of().formatHex(md.digest()), Files.size(file), Files.getLastModifiedTime(file), names);
        }
    }

    @TestFactory
    Stream<DynamicTest> corpusExportsAreUnchangedAfterReading() {
        ProfileReaders readers = ReadContract.readers();
        return CORPUS_NSYS.stream().map(rel -> DynamicTest.dynamicTest(rel, () -> {
            Path f = Corpus.file(rel);
            Snapshot before = Snapshot.of(f);
            ReadContract.Outcome o = ReadContract.read(readers, f);
            assertUnchanged(f, before);
            System.out.println("read-only: " + rel + ": " + o);
        }));
    }

    @Test
    void generatedExportInAFolderWithoutWritePermission() throws Exception {
        ProfileReaders readers = ReadContract.readers();
        Path ro = Files.createDirectory(dir.resolve("ro"));
        Path f = ro.resolve("profile.sqlite");
        Workload.generate(WorkloadSpec.builder().iterations(2).opsPerIteration(6).kernelsPerOp(2).backward(true).build(), f);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r--r--r--"));
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            Snapshot before = Snapshot.of(f);
            ReadContract.Outcome o = ReadContract.read(readers, f);
            assertTrue(o.ok(), "a read-only export must still be readable: " + o);
            assertUnchanged(f, before);
        } finally {
            Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void generatedExportThatEvenRootCannotWrite() throws Exception {
        ProfileReaders readers = ReadContract.readers();
        Path imm = Files.createDirectory(dir.resolve("immutable"));
        Path f = imm.resolve("profile.sqlite");
        Workload.generate(WorkloadSpec.builder().iterations(2).opsPerIteration(6).kernelsPerOp(2).build(), f);
        Assumptions.assumeTrue(chattr("+i", f), "chattr +i is not available here (needs CAP_LINUX_IMMUTABLE on ext4/xfs)");
        try {
            Assumptions.assumeTrue(chattr("+i", imm), "chattr +i on a folder is not available here");
            try {
                assertTrue(!Files.isWritable(f) || !canCreate(imm), "chattr +i did not protect the folder");
                Snapshot before = Snapshot.of(f);
                ReadContract.Outcome o = ReadContract.read(readers, f);
                assertTrue(o.ok(), "an immutable export must still be readable: " + o);
                assertUnchanged(f, before);
            } finally {
                chattr("-i", imm);
            }
        } finally {
            chattr("-i", f);
        }
    }

    private static boolean canCreate(Path folder) {
        try {
            Files.delete(Files.createTempFile(folder, "probe", ".tmp"));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean chattr(String flag, Path p) {
        try {
            Process proc = new ProcessBuilder("chattr", flag, p.toString()).redirectErrorStream(true).start();
            proc.getInputStream().readAllBytes();
            return proc.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void assertUnchanged(Path f, Snapshot before) throws Exception {
        Snapshot after = Snapshot.of(f);
        assertEquals(before.sha256(), after.sha256(), "content of " + f + " changed");
        assertEquals(before.size(), after.size(), "size of " + f + " changed");
        assertEquals(before.mtime(), after.mtime(), "mtime of " + f + " changed");
        String name = f.getFileName().toString();
        for (String side : List.of("-journal", "-wal", "-shm")) {
            assertTrue(!after.siblings().contains(name + side), name + side + " appeared");
        }
        assertEquals(before.siblings(), after.siblings(), "files appeared or vanished beside " + f);
    }
}
