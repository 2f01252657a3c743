package dlproflint.reporters.html;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the distribution's Chromium headless on a local file: {@code --dump-dom} (the DOM after the
 * page's scripts ran), {@code --screenshot}, and pages driven through the DevTools protocol ({@link #open}). Network, sync, updates and first-run are off, with a
 * throw-away profile. When no Chromium is installed the calling test is skipped with a notice, except
 * under {@code CI=true}, where a missing browser is a failure ({@code .ci/run} installs it).
 */
public final class HeadlessChromium {
    private final Path binary;

    private HeadlessChromium(Path binary) {
        this.binary = binary;
    }

    /** The browser, or an aborted (skipped) test when there is none and CI is not set. */
    public static HeadlessChromium require() {
        Path found = Chromium.find();
        if (found == null) {
            String msg = "headless Chromium not found (install Debian's 'chromium' package or set CHROMIUM)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) Assertions.fail(msg + "; required under CI=true");
            System.err.println("NOTICE: skipping browser test: " + msg);
            Assumptions.abort(msg);
        }
        return new HeadlessChromium(found);
    }

    /** The serialized DOM of {@code url} after load and scripts. */
    public String dumpDom(String url, Path work) throws IOException, InterruptedException {
        return run(work, "--dump-dom", url);
    }

    /** Same, after a short virtual-time budget so that timers and late event handlers get their chance to fire. */
    public String dumpDomAfterTimers(String url, Path work) throws IOException, InterruptedException {
        return run(work, "--virtual-time-budget=2000", "--dump-dom", url);
    }

    /** Takes a PNG screenshot of the top {@code width x height} pixels of the page. */
    public void screenshot(String url, Path png, int width, int height, Path work) throws IOException, InterruptedException {
        run(work, "--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height,
                "--hide-scrollbars", url);
        Assertions.assertTrue(Files.isRegularFile(png), "Chromium wrote no screenshot " + png);
    }

    /**
     * A page driven through the DevTools protocol, for clicks, typing, timing and printing; {@code width x height}
     * is the window size. Close it to end the browser.
     */
    public DevToolsPage open(int width, int height, Path work) throws IOException, InterruptedException {
        return DevToolsPage.launch(binary, work, width, height);
    }

    private String run(Path work, String... args) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(work, "chromium-profile");
        List<String> cmd = Chromium.command(binary, profile);
        cmd.addAll(List.of(args));
        Path stdout = work.resolve("chromium-" + System.nanoTime() + ".out");
        Path stderr = work.resolve("chromium-" + System.nanoTime() + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            Assertions.fail("Chromium did not finish within 90 s: " + String.join(" ", cmd));
        }
        Chromium.deleteTree(profile);
        String out = Files.readString(stdout, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            Assertions.fail("Chromium exited with " + p.exitValue() + ": "
                    + Files.readString(stderr, StandardCharsets.UTF_8));
        }
        return out;
    }
}
