package dlproflint.cli.hostile;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Headless Chromium's {@code --dump-dom} (the DOM after the page's scripts ran), with network, sync and
 * extensions off and a throw-away profile. Same policy as the reporters' browser test helper (which is
 * package-private in another module's tests): skipped with a notice when no browser is installed, a
 * failure under {@code CI=true}.
 */
final class Chromium {
    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome", "chrome");
    private final Path binary;

    private Chromium(Path binary) {
        this.binary = binary;
    }

    static Chromium require() {
        Path found = find();
        if (found == null) {
            String msg = "headless Chromium not found (install Debian's 'chromium' package or set CHROMIUM)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) Assertions.fail(msg + "; required under CI=true");
            System.err.println("NOTICE: skipping browser check: " + msg);
            Assumptions.abort(msg);
        }
        return new Chromium(found);
    }

    private static Path find() {
        String env = System.getenv("CHROMIUM");
        if (env != null && !env.isBlank() && Files.isExecutable(Path.of(env))) return Path.of(env);
        String path = System.getenv("PATH");
        if (path == null) return null;
        for (String name : NAMES) {
            for (String dir : path.split(File.pathSeparator)) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) return p;
            }
        }
        return null;
    }

    /** The serialized DOM of a local file after load and scripts (a short virtual-time budget lets timers fire). */
    String dumpDom(Path file, Path work) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(work, "chromium-profile");
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions", "--mute-audio",
                "--disable-dev-shm-usage", "--virtual-time-budget=2000", "--user-data-dir=" + profile.toAbsolutePath(),
                "--dump-dom", file.toUri().toString()));
        Path out = work.resolve("chromium-" + System.nanoTime() + ".out");
        Path err = work.resolve("chromium-" + System.nanoTime() + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            Assertions.fail("Chromium did not finish within 90 s");
        }
        if (p.exitValue() != 0) Assertions.fail("Chromium exited with " + p.exitValue() + ": " + Files.readString(err));
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
