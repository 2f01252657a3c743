package dlproflint.dist;

import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The release archives this build made ({@code dist/target}), unpacked the way a user unpacks them ({@code tar}),
 * and commands run against them with an environment the test chooses completely: no inherited PATH, JAVA_HOME
 * or HOME, so that "only Java 17 on the machine" is what the test says it is.
 */
final class Dist {
    static final Path REPO = Corpus.repoRoot();
    static final String VERSION = System.getProperty("project.version", "unknown");
    static final Path TARGET = REPO.resolve("dist/target");
    static final Path WORK = TARGET.resolve("dist-tests");
    private static final Map<Path, Path> UNPACKED = new HashMap<>();

    record Result(int code, String out, String err) {
        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    private Dist() {
    }

    /** {@code dlprof-lint-VERSION} plus {@code suffix} (".tar.gz", ".zip") as the build named it. */
    static Path archive(String suffix) {
        return Path.of(System.getProperty("dist.archive", TARGET.resolve("dlprof-lint-" + VERSION).toString()) + suffix);
    }

    /**
     * A folder like a GitHub release page: this build's archive and its {@code .sha256}, for the CI scripts to
     * download from; returns its {@code file:} URL without the trailing slash (the scripts' release base).
     */
    static String releasesIn(Path dir) throws IOException {
        Path releases = Files.createDirectories(dir.resolve("releases"));
        for (String suffix : List.of(".tar.gz", ".tar.gz.sha256")) {
            Files.copy(archive(suffix), releases.resolve(archive(suffix).getFileName()));
        }
        return releases.toUri().toString().replaceAll("/$", "");
    }

    /** The jlink variant, or a skipped test with a notice when this build did not make it (-Prelease). */
    static Path runtimeArchive() {
        Path p = Path.of(System.getProperty("dist.runtime.archive", "none") + ".tar.gz");
        if (!Files.isRegularFile(p)) {
            String msg = "the jlink runtime archive " + p.getFileName() + " is built by 'mvn package -Prelease'; not built here";
            System.err.println("NOTICE: skipping: " + msg);
            Assumptions.abort(msg);
        }
        return p;
    }

    /** The archive unpacked by {@code tar} into a fresh folder (once per archive and test run); its top folder. */
    static synchronized Path unpacked(Path archive) throws Exception {
        Path done = UNPACKED.get(archive);
        if (done != null) return done;
        Path into = WORK.resolve("unpacked-" + archive.getFileName().toString().replace(".tar.gz", ""));
        deleteTree(into);
        Files.createDirectories(into);
        Result r = run(into, Map.of("PATH", "/usr/bin:/bin"), "tar", "-xzf", archive.toString());
        if (r.code() != 0) throw new AssertionError("tar failed: " + r);
        Path top = into.resolve("dlprof-lint-" + VERSION);
        UNPACKED.put(archive, top);
        return top;
    }

    /** A command in {@code cwd} with exactly {@code env} as its environment. */
    static Result run(Path cwd, Map<String, String> env, String... command) throws Exception {
        return run(cwd, env, List.of(command));
    }

    static Result run(Path cwd, Map<String, String> env, List<String> command) throws Exception {
        Files.createDirectories(WORK);
        Path out = Files.createTempFile(WORK, "out", ".txt");
        Path err = Files.createTempFile(WORK, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).directory(cwd.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        Result r = new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    /**
     * A folder to put on PATH holding the few programs the POSIX launcher uses, and {@code java} only when asked:
     * the machine "with only Java", or with no Java at all.
     */
    static Path toolsPath(String name, boolean withJava) throws IOException {
        Path bin = WORK.resolve("path-" + name);
        deleteTree(bin);
        Files.createDirectories(bin);
        for (String tool : List.of("sh", "dirname", "readlink", "sed", "bash")) {
            Path real = Path.of("/bin", tool);
            if (!Files.exists(real)) real = Path.of("/usr/bin", tool);
            if (Files.exists(real)) Files.createSymbolicLink(bin.resolve(tool), real);
        }
        if (withJava) {
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Files.createSymbolicLink(bin.resolve("java"), java);
        }
        return bin;
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
