package dlproflint.dist;

import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The jlink variant ({@code mvn package -Prelease}) runs with no Java anywhere on the machine's PATH or in
 * JAVA_HOME: lint, the HTML report (FreeMarker) and a cold rule compilation all work on the trimmed runtime.
 * Skipped with a notice when this build did not make the image.
 */
class RuntimeImageTest {
    static Path home;

    @BeforeAll
    static void unpack() throws Exception {
        home = Dist.unpacked(Dist.runtimeArchive());
    }

    @Test
    void runsWithoutAnyJavaOnPath() throws Exception {
        Path cwd = Dist.WORK.resolve("runtime-no-java");
        Dist.deleteTree(cwd);
        Files.createDirectories(cwd);
        Map<String, String> env = Map.of("PATH", Dist.toolsPath("runtime-no-java", false).toString(),
                "HOME", Files.createDirectories(cwd.resolve("home")).toString());
        Path launcher = home.resolve("bin/dlprof-lint");
        Dist.Result version = Dist.run(cwd, env, launcher.toString(), "--version");
        assertEquals(0, version.code(), version::toString);
        assertTrue(version.out().contains("Java 17"), "the bundled runtime runs it: " + version.out());

        Dist.Result lint = Dist.run(cwd, env, launcher.toString(), Corpus.file(ReleaseArchiveTest.PROFILE).toString(),
                "--no-config", "--fail-on", "warning", "--report", "html=report.html", "--report", "sarif=report.sarif",
                "--sarif-anchor", Files.writeString(cwd.resolve("train.py"), "pass\n").toString());
        assertEquals(1, lint.code(), lint::toString);
        assertTrue(Files.readString(cwd.resolve("report.html")).contains("</html>"));

        long runtime = size(home.resolve("runtime"));
        long archive = Files.size(Dist.runtimeArchive());
        System.out.printf(Locale.ROOT, "jlink runtime: %.1f MiB unpacked (modules: %s); archive %s: %.1f MiB%n",
                runtime / 1048576.0, Files.readString(home.resolve("runtime/MODULES")).strip(),
                Dist.runtimeArchive().getFileName(), archive / 1048576.0);
        assertTrue(runtime < 80L * 1048576, "a trimmed runtime, not a JDK: " + runtime);
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
