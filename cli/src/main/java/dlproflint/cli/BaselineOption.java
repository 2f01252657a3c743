package dlproflint.cli;

import dlproflint.findings.LintRun;
import picocli.CommandLine.Option;

/** {@code --baseline FILE}, for every command that hides known findings ({@code lint}, {@code job}, {@code report}). */
final class BaselineOption {
    @Option(names = "--baseline", paramLabel = "FILE", description = "Hide the known findings listed in FILE (see 'baseline').")
    String file;

    /** The baseline file, or null without the option (it is read, so no report may overwrite it). */
    java.nio.file.Path path(CliEnv env) {
        return file == null ? null : env.resolve(file);
    }

    /** The baseline, read before the rule packs load (a bad file fails fast), or null without the option. */
    Baseline read(CliEnv env) throws CliException {
        return file == null ? null : Baseline.read(env.resolve(file));
    }

    /** Names the baseline's entries that no finding of the run matches any more. */
    void reportStale(CliEnv env, Baseline known, LintRun run) {
        if (known != null) ReportOutputs.reportStale(env, known, file, run);
    }
}
