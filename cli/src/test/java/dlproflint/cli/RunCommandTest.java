package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.testing.TorchPython;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dlprof-lint run -- python train.py} end to end on the CPU: a tiny model trained for a few steps by a real
 * PyTorch ({@link TorchPython}: Debian's python3-torch in CI), the trace written, read and linted, the steps found
 * where {@code optimizer.step()} returned; a script that crashes, never steps, or cannot import torch ends in one
 * clear line and exit 4 naming its exit code.
 */
@Timeout(600)
class RunCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A tiny model trained for argv[1] steps (20 by default); argv[2] = "crash" raises after training. */
    static final String TINY_TRAIN = """
            import sys
            import torch
            import torch.nn as nn

            torch.manual_seed(0)
            model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
            opt = torch.optim.SGD(model.parameters(), lr=0.05)
            steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
            for step in range(steps):
                x = torch.randn(32, 64)
                y = torch.randint(0, 10, (32,))
                opt.zero_grad()
                loss = nn.functional.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
            print("trained", steps, "steps")
            if len(sys.argv) > 2 and sys.argv[2] == "crash":
                raise SystemExit(3)
            """;

    @TempDir
    Path dir;
    CliHarness cli;
    String python;

    @BeforeEach
    void setUp() throws IOException {
        python = TorchPython.interpreter().toString();
        Files.writeString(dir.resolve("tiny_train.py"), TINY_TRAIN, StandardCharsets.UTF_8);
        cli = new CliHarness(dir).env("PATH", System.getenv("PATH")).env("HOME", dir.toString());
    }

    @Test
    void aTinyModelIsRecordedReadAndLintedWithTheStepsItsOptimizerEnded() throws Exception {
        CliHarness.Result r = cli.run("run", "--report", "json=report.json", "--report", "html=report.html", "--",
                python, "tiny_train.py", "20");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("trained 20 steps"), "the script's own output passes through: " + r);
        assertTrue(r.err().contains("dlprof-lint: recorded steps 6-10 of 20 (optimizer.step() of SGD) in tiny_train.pt.trace.json"),
                r::toString);
        Path trace = dir.resolve("tiny_train.pt.trace.json");
        assertTrue(Files.isRegularFile(trace), "the capture is kept");
        assertTrue(Files.isRegularFile(dir.resolve("report.html")));
        JsonNode p = JSON.readTree(dir.resolve("report.json").toFile()).path("profiles").path(0);
        assertEquals("kineto", p.path("format").asText());
        JsonNode its = p.path("metrics").path("iterations");
        assertEquals(5, its.path("total").asInt(), "the 5 recorded steps");
        assertEquals("step-markers", its.path("method").asText());
        // each recorded step holds exactly one optimizer step, and the trace holds no other
        JsonNode events = JSON.readTree(trace.toFile());
        JsonNode all = events.isArray() ? events : events.path("traceEvents");
        int steps = 0;
        int optimizer = 0;
        for (JsonNode e : all) {
            String name = e.path("name").asText();
            if (name.startsWith("ProfilerStep#")) steps++;
            if (name.startsWith("Optimizer.step#")) optimizer++;
        }
        assertEquals(5, steps);
        assertEquals(5, optimizer);
        assertFalse(Files.list(dir).anyMatch(f -> f.getFileName().toString().endsWith(".tmp")), "no temporary file left");
    }

    @Test
    void aFunctionNamedWithStepFnEndsTheSteps() throws Exception {
        Files.writeString(dir.resolve("loop.py"), """
                import torch, torch.nn as nn
                m = nn.Linear(16, 4)
                opt = torch.optim.SGD(m.parameters(), lr=0.1)
                def train_step():
                    for _ in range(2):  # two optimizer steps per training step
                        opt.zero_grad(); m(torch.randn(8, 16)).sum().backward(); opt.step()
                for i in range(12):
                    train_step()
                """);
        CliHarness.Result r = cli.run("run", "--step-fn", "train_step", "--warmup", "2", "--steps", "3", "--report",
                "json=r.json", "--", python, "loop.py");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.err().contains("recorded steps 3-5 of 12 (train_step())"), r::toString);
        assertEquals(3, JSON.readTree(dir.resolve("r.json").toFile()).path("profiles").path(0).path("metrics")
                .path("iterations").path("total").asInt());
    }

    @Test
    void aScriptThatCrashesBeforeAStepIsExit4WithItsExitCode() throws Exception {
        Files.writeString(dir.resolve("crash.py"), "import torch\nraise RuntimeError('boom before training')\n");
        CliHarness.Result r = cli.run("run", "--report", "json=r.json", "--", python, "crash.py");
        assertEquals(ExitCodes.RUN, r.code(), r::toString);
        assertTrue(r.err().contains("RuntimeError: boom before training"), "the script's traceback is shown: " + r);
        assertTrue(r.err().contains("dlprof-lint: crash.py exited with code 1 before completing a step, so nothing was recorded"),
                r::toString);
        assertFalse(Files.exists(dir.resolve("r.json")), "no report without a capture");
    }

    @Test
    void aScriptThatNeverStepsIsExit4SayingWhatWasNeverCalled() throws Exception {
        Files.writeString(dir.resolve("idle.py"), "import torch\nprint(float(torch.ones(2).sum()))\n");
        CliHarness.Result r = cli.run("run", "--", python, "idle.py");
        assertEquals(ExitCodes.RUN, r.code(), r::toString);
        assertTrue(r.err().contains("idle.py ran to the end without completing a step: optimizer.step() was never called, so "
                + "nothing was recorded (name the function that ends a training step with --step-fn)"), r::toString);
    }

    @Test
    void aScriptThatFailsAfterTheCaptureIsLintedAndStillExit4() throws Exception {
        CliHarness.Result r = cli.run("run", "--steps", "3", "--report", "json=r.json", "--", python, "tiny_train.py", "12", "crash");
        assertEquals(ExitCodes.RUN, r.code(), r::toString);
        assertTrue(Files.isRegularFile(dir.resolve("r.json")), "the capture is reported");
        assertTrue(r.err().contains("dlprof-lint: tiny_train.py exited with code 3 after the capture"), r::toString);
    }

    @Test
    void tooFewStepsForTheWarmupAndAPartialCaptureAreSaid() throws Exception {
        CliHarness.Result few = cli.run("run", "--warmup", "30", "--", python, "tiny_train.py", "10");
        assertEquals(ExitCodes.RUN, few.code(), few::toString);
        assertTrue(few.err().contains("after 10 steps, before the 30 warm-up steps were over"), few::toString);

        CliHarness.Result partial = cli.run("run", "--warmup", "2", "--steps", "30", "--report", "json=r.json", "--", python,
                "tiny_train.py", "10");
        assertEquals(0, partial.code(), partial::toString);
        assertTrue(partial.err().contains("recorded steps 3-10 of 10"), partial::toString);
        assertTrue(partial.err().contains("warning: the script ended after 10 steps, so 8 of the 30 steps asked for were recorded"),
                partial::toString);
        assertEquals(8, JSON.readTree(dir.resolve("r.json").toFile()).path("profiles").path(0).path("metrics")
                .path("iterations").path("total").asInt());
    }

    @Test
    void anInterpreterWithoutTorchIsExit4NamingIt() throws Exception {
        // the same interpreter without its site packages (-S): torch cannot be imported
        Path noTorch = dir.resolve("python3");
        Files.writeString(noTorch, "#!/bin/sh\nexec " + python + " -S \"$@\"\n");
        Files.setPosixFilePermissions(noTorch, PosixFilePermissions.fromString("rwxr-xr-x"));
        CliHarness.Result r = cli.run("run", "--python", noTorch.toString(), "--", "tiny_train.py");
        assertEquals(ExitCodes.RUN, r.code(), r::toString);
        assertTrue(r.err().contains("tiny_train.py: PyTorch cannot be imported by this interpreter (ModuleNotFoundError"), r::toString);
        assertTrue(r.err().contains("choose the interpreter with --python"), r::toString);
    }

    @Test
    void usageMistakesAreExit2BeforeAnythingRuns() {
        CliHarness.Result missing = cli.run("run", "--", python, "missing.py");
        assertEquals(2, missing.code(), missing::toString);
        assertTrue(missing.err().contains("missing.py: no such script"), missing::toString);
        CliHarness.Result twice = cli.run("run", "--python", python, "--", python, "tiny_train.py");
        assertEquals(2, twice.code(), twice::toString);
        CliHarness.Result badStep = cli.run("run", "--step-fn", "not a name", "--", python, "tiny_train.py");
        assertEquals(2, badStep.code(), badStep::toString);
        CliHarness.Result badOutput = cli.run("run", "--output", "trace.txt", "--", python, "tiny_train.py");
        assertEquals(2, badOutput.code(), badOutput::toString);
        assertTrue(badOutput.err().contains("name it *.json or *.json.gz"), badOutput::toString);
        CliHarness.Result overInput = cli.run("run", "--report", "json=tiny_train.pt.trace.json", "--", python, "tiny_train.py");
        assertEquals(2, overInput.code(), overInput::toString);
        assertFalse(Files.exists(dir.resolve("tiny_train.pt.trace.json")), "nothing ran");
    }

    @Test
    void withoutNsysTheNsysCaptureIsAClearUsageError() {
        CliHarness.Result r = cli.env("PATH", dir.toString()).run("run", "--nsys", "--", python, "tiny_train.py");
        assertEquals(2, r.code(), r::toString);
        assertEquals(1, r.errLines().length, r::toString);
        assertTrue(r.err().startsWith("dlprof-lint: nsys not found on PATH; --nsys records with Nsight Systems"), r::toString);
        CliHarness.Result named = cli.run("run", "--nsys=/opt/none/nsys", "--", python, "tiny_train.py");
        assertTrue(named.err().startsWith("dlprof-lint: /opt/none/nsys: no such nsys"), named::toString);
    }

    /**
     * With a stand-in nsys that records its arguments and runs the command it was given: the nsys command line, and
     * the bootstrap in nsys mode on a machine without CUDA saying why nothing was recorded (the script still ends
     * normally: a failed capture never fails the user's script).
     */
    @Test
    void theNsysCommandLineAndACaptureThatCannotStart() throws Exception {
        Path args = dir.resolve("nsys-args.txt");
        Path nsys = dir.resolve("nsys");
        Files.writeString(nsys, "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + args + "\nwhile [ \"${1#--}\" != \"$1\" ] || [ \"$1\" = profile ]; "
                + "do shift; done\nexec \"$@\"\n");
        Files.setPosixFilePermissions(nsys, PosixFilePermissions.fromString("rwxr-xr-x"));
        CliHarness.Result r = cli.run("run", "--nsys=" + nsys, "--warmup", "2", "--steps", "2", "--", python, "tiny_train.py", "6");
        List<String> argv = Files.readAllLines(args);
        assertEquals(List.of("profile", "--capture-range=cudaProfilerApi", "--capture-range-end=stop",
                "--trace=cuda,nvtx,osrt,cudnn,cublas", "--cuda-memory-usage=true", "--force-overwrite=true",
                "--output=" + dir.resolve("tiny_train")), argv.subList(0, 7), argv.toString());
        assertEquals(python, argv.get(7));
        assertTrue(argv.get(8).endsWith("dlprof_lint_bootstrap.py"), argv.toString());
        assertEquals(List.of("tiny_train.py", "6"), argv.subList(10, 12));
        assertTrue(r.out().contains("trained 6 steps"), "the script ran to its end: " + r);
        if (!cudaAvailable()) {
            assertEquals(ExitCodes.RUN, r.code(), r::toString);
            assertTrue(r.err().contains("tiny_train.py ran to the end and nothing was recorded: the capture failed at step 2"),
                    r::toString);
        }
    }

    private boolean cudaAvailable() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(python, "-c", "import torch,sys; sys.exit(0 if torch.cuda.is_available() else 1)").start();
        p.getInputStream().readAllBytes();
        return p.waitFor() == 0;
    }
}
