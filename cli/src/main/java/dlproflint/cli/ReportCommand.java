package dlproflint.cli;

import dlproflint.findings.OneLine;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ProfileReaders;
import dlproflint.findings.LintRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code dlprof-lint report PROFILE}: DLProf 1.8's aggregated reports ({@code dlprof_summary.csv}, ...),
 * same files, sections and columns, so DLProf users keep their spreadsheets.
 */
@Command(name = "report", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class, sortOptions = false,
        description = "Write DLProf-format reports (CSV/JSON) for a profile.",
        footerHeading = "%nExamples:%n",
        footer = {"  dlprof-lint report run.sqlite --reports summary,detail --formats csv --output-path out/",
                "  dlprof-lint report run.sqlite --reports all --formats csv,json --iter-start 5 --iter-stop 20"})
final class ReportCommand implements Callable<Integer> {
    private final CliEnv env;

    @Parameters(paramLabel = "PROFILE", description = "The profile to report on.")
    String profile;

    @Option(names = "--reports", split = ",", paramLabel = "REPORT", defaultValue = "summary",
            description = "Reports: summary (default), detail, iteration, kernel, tensor, op_type, group_node, "
                    + "expert_systems (the rules' findings in DLProf's layout), all.")
    List<String> reports = new ArrayList<>();

    @Option(names = "--formats", split = ",", paramLabel = "FORMAT", defaultValue = "csv",
            description = "File formats: csv (default), json.")
    List<String> formats = new ArrayList<>();

    @Option(names = "--output-path", paramLabel = "DIR", defaultValue = ".",
            description = "Folder for the reports (created if missing; default: the working directory).")
    String outputPath;

    @Option(names = "--base-name", paramLabel = "NAME", defaultValue = "dlprof",
            description = "Prefix of the report file names (default: dlprof).")
    String baseName;

    @Mixin
    BaselineOption baseline = new BaselineOption();
    @Mixin
    LintOptions lint = new LintOptions();

    ReportCommand(CliEnv env) {
        this.env = env;
    }

    @Override
    public Integer call() throws Exception {
        DlprofReportsBridge.Selection selection = DlprofReportsBridge.select(reports, formats);
        if (baseName.isBlank() || baseName.contains("/") || baseName.contains("\\")) {
            throw CliException.usage("--base-name must be a plain file name prefix");
        }
        String base = baseName.trim().replace(' ', '_');
        Path dir = env.resolve(outputPath);
        // The expert-systems report lints through the same plan as 'lint' (suppressions, baseline);
        // the other reports need the facts only, so no rule pack is loaded for them.
        LintSession session = LintSession.prepare(env, lint);
        try (ProfileInputs one = ProfileInputs.of(env, List.of(profile), false)) {
            OutputChecks.checkWritableFolder(dir, "--output-path");
            ReadFiles reads = session.reads(one.candidatePaths()).withBaseline(baseline.path(env));
            for (String name : DlprofReportsBridge.fileNames(base, selection)) {
                OutputChecks.refuseRead(dir.resolve(name), OutputChecks.classify(dir.resolve(name), "report"), "report", reads);
            }
            Baseline known = baseline.read(env);
            one.check();
            if (selection.expertSystems()) session.loadRules();
            ProfilePlan plan = new ProfilePlan(one);
            LintRun run = plan.run(session, known, 1);
            if (run == null) return ExitCodes.PROFILE;
            // the file read (the spooled copy when the profile came from standard input) is read again per launch
            Path read = plan.opened().get(0).path();
            try {
                ProfileReader reader = ProfileReaders.discover().readerFor(read);
                List<Path> written = DlprofReportsBridge.write(reader, read, session.readOptions, selection, dir, base,
                        run.results().get(0));
                env.err().println("dlprof-lint: wrote " + written.size() + " report file" + (written.size() == 1 ? "" : "s") + " to " + outputPath);
            } catch (ProfileException e) {
                env.err().println("dlprof-lint: " + OneLine.of(profile + ": " + e.getMessage()));
                return ExitCodes.PROFILE;
            }
            return ExitCodes.OK;
        }
    }
}
