package dlproflint.reporters.html;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the headless browser is and how it is started: network, sync, updates, extensions and first-run off,
 * a throw-away profile. Shared by the tests ({@link HeadlessChromium}) and the HTML report benchmark (bench
 * module), so it uses no test framework.
 */
public final class Chromium {
    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome", "chrome");

    private Chromium() {
    }

    /** {@code $CHROMIUM}, else the first of chromium, chromium-browser, google-chrome, chrome on the PATH; null if none. */
    public static Path find() {
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

    /** The command line up to the mode-specific arguments. */
    public static List<String> command(Path binary, Path profile) {
        return new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions", "--mute-audio",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile.toAbsolutePath()));
    }

    /** Removes a throw-away browser profile (best effort: a file still held open is left). */
    static void deleteTree(Path dir) {
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            // left for the next clean build
        }
    }
}
