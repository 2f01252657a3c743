package dlproflint.cli;

import dlproflint.cli.run.CaptureSettings;
import dlproflint.cli.run.CaptureStatus;
import dlproflint.cli.run.NsysProfile;
import dlproflint.cli.run.TrainingCommand;
import dlproflint.cli.run.TrainingRun;
import dlproflint.extract.ReadOptions;
import dlproflint.extract.nsys.NsysTool;
import dlproflint.findings.LintRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code dlprof-lint run [options] -- python train.py ARGS}: DLProf's {@code dlprof python train.py}. The training
 * script runs unedited under a Python bootstrap that marks a step each time {@code optimizer.step()} (or
 * {@code --step-fn}) returns, lets {@code --warmup} steps pass, records {@code --steps} steps with torch.profiler
 * (or nsys with {@code --nsys}) and stops recording while the script runs on; then the capture is linted like
 * {@code lint} would. Configuration, report paths and rule packs are checked before the script starts.
 */
@Command(name = "run", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class, sortOptions = false,
        description = {"Run a training script under the profiler (torch.profiler, or nsys with --nsys), record a few steady "
                + "steps, and lint them.",
                "The script is not edited: steps end where optimizer.step() returns (or --step-fn)."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  dlprof-lint run -- python train.py --epochs 1",
                "  dlprof-lint run --warmup 20 --steps 10 --report html=report.html -- python3 train.py",
                "  dlprof-lint run --step-fn train_step -- python -m mypkg.train",
                "  dlprof-lint run --nsys -- python train.py",
                "",
                "Exit codes: 0 no finding at or above --fail-on, 1 findings at or above it,",
                "2 usage, configuration or rule error, 3 unreadable capture, 4 the training command failed or recorded",
                "no step, 70 internal error."})
final class RunCommand implements Callable<Integer> {
    private final CliEnv env;

    @Parameters(arity = "1..*", paramLabel = "COMMAND",
            description = "The training command, after '--': python train.py [ARGS], python -m MODULE [ARGS], or "
                    + "train.py [ARGS] (run by --python).")
    List<String> command = new ArrayList<>();

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "5",
            description = "Steps that run before recording starts (default 5; the last one with the profiler on, discarded).")
    int warmup;

    @Option(names = "--steps", paramLabel = "N", defaultValue = "5", description = "Steps recorded (default 5).")
    int steps;

    @Option(names = "--step-fn", paramLabel = "[MODULE:]NAME",
            description = "The function whose return ends a step (train_step, Trainer.step, mypkg.loop:train_step; "
                    + "module __main__ by default). Default: optimizer.step() of the first optimizer that steps.")
    String stepFn;

    @Option(names = "--capture", paramLabel = "WHAT", split = ",", defaultValue = "shapes,stack,memory,modules",
            description = "What torch.profiler records besides ops: shapes, stack, memory, modules (default: all), or none.")
    List<String> capture = new ArrayList<>();

    @Option(names = "--python", paramLabel = "PATH",
            description = "Interpreter for a command that does not name one (default: python3 on PATH).")
    String python;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Where the capture goes (default: SCRIPT.pt.trace.json, with --nsys SCRIPT.nsys-rep, in the "
                    + "working directory; replaced if it exists).")
    String output;

    @Option(names = "--nsys", paramLabel = "PATH", arity = "0..1", fallbackValue = "",
            description = "Record with Nsight Systems (nsys profile --capture-range=cudaProfilerApi, emit_nvtx) instead of "
                    + "torch.profiler; PATH: the nsys to use (default: $DLPROF_LINT_NSYS, else nsys on PATH).")
    String nsys;

    @Mixin
    BaselineOption baseline = new BaselineOption();
    @Mixin
    ReportOutputs outputs = new ReportOutputs();
    // lint's options (LintOptions) but for --nsys, which here records rather than names the exporting nsys
    @Mixin
    RuleOptions rules = new RuleOptions();
    @Mixin
    ReadingOptions reading = new ReadingOptions();
    @Mixin
    CommonOptions common = new CommonOptions();

    RunCommand(CliEnv env) {
        this.env = env;
    }

    @Override
    public Integer call() throws Exception {
        if (warmup < 0) throw CliException.usage("--warmup must be 0 or more, not " + warmup);
        if (steps < 1) throw CliException.usage("--steps must be 1 or more, not " + steps);
        if (stepFn != null && !CaptureSettings.validStepFunction(stepFn)) {
            throw CliException.usage("--step-fn '" + stepFn + "' is not a function name ([module:]name, e.g. train_step, "
                    + "Trainer.step, mypkg.loop:train_step)");
        }
        boolean withNsys = nsys != null;
        TrainingCommand cmd = TrainingCommand.parse(command, python, env.cwd(), env.env());
        Path nsysPath = withNsys ? nsysExecutable() : null;
        Path profile = output != null ? env.resolve(output)
                : env.cwd().resolve(cmd.stem() + (withNsys ? NsysProfile.SUFFIX : ".pt.trace.json"));
        checkProfileName(profile, withNsys);
        CaptureSettings settings = new CaptureSettings(withNsys, warmup, steps, stepFn, details(), withNsys ? null : profile);
        ReadOptions readOptions = reading.toReadOptions(env, withNsys ? nsysPath.toString() : null);

        LintSession session = LintSession.prepare(env, rules, readOptions);
        try (ProfileInputs inputs = ProfileInputs.of(env, List.of(profile.toString()), false)) {
            // the capture is written, then read: it may not replace the configuration, a rule file or the baseline,
            // and no report may replace it
            ReadFiles others = session.reads(List.of()).withBaseline(baseline.path(env));
            OutputChecks.checkWritableFile(profile, "the capture (--output)", others);
            outputs.check(env, session.reads(inputs.candidatePaths()).withBaseline(baseline.path(env)));
            Baseline known = baseline.read(env);
            session.loadRules();
            env.err().println("dlprof-lint: running " + cmd.label() + " with " + cmd.interpreter() + " under "
                    + (withNsys ? "nsys" : "torch.profiler") + ": " + warmup + " warm-up " + plural(warmup, "step")
                    + ", then " + steps + " recorded; a step ends when " + settings.stepLabel() + " returns");
            TrainingRun.Outcome o = TrainingRun.run(cmd, settings, nsysPath, profile, env.cwd(), env.env(), streams());
            if (o.profile() == null) throw new CliException(ExitCodes.RUN, nothingCaptured(cmd, settings, o));
            CaptureStatus s = o.status();
            env.err().println("dlprof-lint: recorded " + (s.first() == s.last() ? "step " + s.first() : "steps " + s.first()
                    + "-" + s.last()) + " of " + s.steps() + " (" + (s.hook() == null ? settings.stepLabel() : s.hook())
                    + ") in " + env.cwd().relativize(profile.toAbsolutePath()));
            if ("partial".equals(s.state())) {
                env.err().println("dlprof-lint: warning: the script ended after " + s.steps() + " " + plural(s.steps(), "step")
                        + ", so " + (s.last() - s.first() + 1) + " of the " + steps + " steps asked for were recorded");
            }
            inputs.check();
            LintRun run = new ProfilePlan(inputs).withDetails(outputs.wants("html")).run(session, known, 1);
            if (run == null) return ExitCodes.PROFILE;
            int code = outputs.write(env, run, session.config);
            baseline.reportStale(env, known, run);
            if (o.exitCode() != 0) {
                env.err().println("dlprof-lint: " + cmd.label() + " " + ended(o.exitCode()) + " after the capture");
                return ExitCodes.RUN;
            }
            return code;
        }
    }

    /** Why there is nothing to lint, naming the script's exit code and what the bootstrap saw. */
    private String nothingCaptured(TrainingCommand cmd, CaptureSettings settings, TrainingRun.Outcome o) {
        CaptureStatus s = o.status();
        String exit = ended(o.exitCode());
        if (s == null) {
            return cmd.label() + ": " + cmd.interpreter() + " " + exit + " before the dlprof-lint bootstrap could start "
                    + "(is it a Python 3 interpreter with PyTorch?); nothing was recorded";
        }
        if (s.torch() == null) {
            return cmd.label() + ": " + (s.message() != null ? s.message() : "PyTorch cannot be imported") + "; the script "
                    + exit + " and nothing was recorded (choose the interpreter with --python)";
        }
        String ran = o.exitCode() == 0 ? "ran to the end" : exit;
        return switch (s.state()) {
            case "no-steps" -> cmd.label() + " " + (o.exitCode() == 0 ? "ran to the end without completing a step: "
                    + settings.stepLabel() + " was never called" : exit + " before completing a step") + ", so nothing was recorded"
                    + (settings.stepFn() == null
                    ? " (name the function that ends a training step with --step-fn)" : "");
            case "too-few-steps" -> cmd.label() + " " + ran + " after " + s.steps() + " " + plural(s.steps(), "step")
                    + ", before the " + settings.warmup() + " warm-up steps were over, so nothing was recorded (lower --warmup"
                    + " or let it run longer)";
            default -> cmd.label() + " " + ran + " and nothing was recorded"
                    + (s.message() != null ? ": " + s.message() : "");
        };
    }

    /** "exited with code 3", "was killed by signal 9". */
    static String ended(int code) {
        if (code > 128 && code < 160) return "was killed by signal " + (code - 128);
        return "exited with code " + code;
    }

    private Set<String> details() throws CliException {
        Set<String> out = new LinkedHashSet<>();
        for (String c : capture) {
            String v = c.trim().toLowerCase(Locale.ROOT);
            if (v.equals("none")) continue;
            if (!CaptureSettings.DETAILS.contains(v)) {
                throw CliException.usage("--capture: unknown '" + c + "' (expected " + String.join(", ", CaptureSettings.DETAILS)
                        + " or none)");
            }
            out.add(v);
        }
        return out;
    }

    private void checkProfileName(Path profile, boolean withNsys) throws CliException {
        String name = profile.getFileName() == null ? "" : profile.getFileName().toString();
        if (withNsys && !name.endsWith(NsysProfile.SUFFIX)) {
            throw CliException.usage(output + ": with --nsys the capture is an Nsight Systems report: name it *.nsys-rep");
        }
        if (!withNsys && !(name.endsWith(".json") || name.endsWith(".json.gz"))) {
            throw CliException.usage(output + ": the capture is a PyTorch profiler trace: name it *.json or *.json.gz");
        }
    }

    private Path nsysExecutable() throws CliException {
        NsysTool tool = NsysTool.fromEnvironment(env.env(), nsys.isEmpty() ? null : nsys);
        return tool.resolve().orElseThrow(() -> CliException.usage((tool.named() ? tool.command() + ": no such nsys"
                : "nsys not found on PATH") + "; --nsys records with Nsight Systems: install it (it comes with the CUDA "
                + "toolkit) or name it with --nsys=PATH, or leave --nsys out to record with torch.profiler"));
    }

    /**
     * The script's output goes to the real stdout and stderr when they are this process's own; when a report goes to
     * stdout, the script's stdout goes to stderr, so the report can be piped.
     */
    private TrainingRun.Streams streams() {
        // the default text report follows the script's output on the terminal; an asked-for report on stdout is kept clean
        boolean reportOnStdout = !outputs.reports.isEmpty() && outputs.targets().stream().anyMatch(ReportTarget::toStdout);
        boolean realOut = env.out() instanceof StdStream;
        boolean realErr = env.err() instanceof StdStream;
        return new TrainingRun.Streams(reportOnStdout ? env.err() : env.out(), env.err(), env.in() == System.in,
                realOut && !reportOnStdout, realErr);
    }

    private static String plural(int n, String word) {
        return n == 1 ? word : word + "s";
    }
}
