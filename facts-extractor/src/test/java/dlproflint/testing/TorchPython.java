package dlproflint.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Python interpreter with PyTorch, for tests that record real traces: {@code $DLPROF_LINT_TORCH_PYTHON}, else
 * Debian's {@code /usr/bin/python3} with {@code python3-torch} (PyTorch 1.13, CPU only, built without Kineto;
 * {@code .ci/run} installs it). Without one a test is skipped with a notice; under CI ({@code CI=true}) it fails.
 */
public final class TorchPython {
    public static final String ENV = "DLPROF_LINT_TORCH_PYTHON";
    public static final String DEBIAN = "/usr/bin/python3";
    private static Boolean usable;

    private TorchPython() {
    }

    /** The interpreter; skips the calling test (fails it under CI) when it cannot import torch. */
    public static synchronized Path interpreter() {
        String configured = System.getenv(ENV);
        Path python = Path.of(configured != null && !configured.isBlank() ? configured : DEBIAN);
        if (usable == null) usable = Files.isExecutable(python) && imports(python);
        if (!usable) {
            String msg = python + " cannot import torch (apt-get install python3-torch, or set " + ENV + ")";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) throw new AssertionError(msg + "; CI=true requires it");
            System.err.println("NOTICE: skipping: " + msg);
            Assumptions.abort(msg);
        }
        return python;
    }

    private static boolean imports(Path python) {
        try {
            Process p = new ProcessBuilder(python.toString(), "-c", "import torch").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(300, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Writes {@code source} to {@code dir/name} and runs it there; fails the test unless it exits 0. Returns its output. */
    public static String run(Path dir, String name, String source, String... args) throws IOException, InterruptedException {
        Path script = dir.resolve(name);
        Files.writeString(script, source, StandardCharsets.UTF_8);
        List<String> argv = new ArrayList<>(List.of(interpreter().toString(), script.toString()));
        argv.addAll(List.of(args));
        Process p = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(name + " did not finish in 10 minutes:\n" + out);
        }
        if (p.exitValue() != 0) throw new AssertionError(name + " exited with " + p.exitValue() + ":\n" + out);
        return out;
    }
}
