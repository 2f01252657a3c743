package dlproflint.cli;

import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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
    static final List<String> REPORTS = List.of("summary", "detail", "iteration", "kernel", "tensor", "op_type",
            "group_node", "expert_systems");
    static final List<String> FORMATS = List.of("csv", "json");

    private final CliEnv env;

    @Parameters(paramLabel = "PROFILE", description = "The profile to report on.")
    String profile;

    @Option(names = "--reports", split = ",", paramLabel = "REPORT", defaultValue = "summary",
            description = "Reports: summary (default), detail, iteration, kernel, tensor, op_type, group_node, expert_systems, all.")
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
    ProfileOptions profileOptions = new ProfileOptions();
    @Mixin
    CommonOptions common = new CommonOptions();

    ReportCommand(CliEnv env) {
        this.env = env;
    }

    @Override
    public Integer call() throws Exception {
        Set<String> selected = selection(reports, REPORTS, "report");
        Set<String> fileFormats = selection(formats, FORMATS, "format");
        if (baseName.isBlank() || baseName.contains("/") || baseName.contains("\\")) {
            throw CliException.usage("--base-name must be a plain file name prefix");
        }
        ReadOptions readOptions = profileOptions.toReadOptions();
        Path input = env.resolve(profile);
        Path dir = env.resolve(outputPath);
        OutputChecks.checkWritableFolder(dir, "--output-path");
        for (String name : DlprofReportsBridge.fileNames(baseName, selected, fileFormats)) {
            if (OutputChecks.same(dir.resolve(name), input)) {
                throw CliException.usage(dir.resolve(name) + ": report would overwrite the input profile; choose another --output-path");
            }
        }
        DlprofReportsBridge.checkAvailable();
        ProfileReaders readers = ProfileReaders.discover();
        try {
            readers.readerFor(input);
        } catch (ProfileException e) {
            env.err().println("dlprof-lint: " + profile + ": " + Main.oneLine(e.getMessage()));
            return ExitCodes.PROFILE;
        }
        Files.createDirectories(dir);
        try {
            List<Path> written = DlprofReportsBridge.write(readers, input, readOptions, selected, fileFormats, dir, baseName);
            env.err().println("dlprof-lint: wrote " + written.size() + " report file" + (written.size() == 1 ? "" : "s") + " to " + dir);
        } catch (ProfileException e) {
            env.err().println("dlprof-lint: " + profile + ": " + Main.oneLine(e.getMessage()));
            return ExitCodes.PROFILE;
        }
        return ExitCodes.OK;
    }

    private static Set<String> selection(List<String> given, List<String> allowed, String what) throws CliException {
        Set<String> out = new LinkedHashSet<>();
        for (String g : given) {
            String v = g.trim().toLowerCase(Locale.ROOT);
            if (v.equals("all") && what.equals("report")) {
                out.addAll(allowed);
            } else if (allowed.contains(v)) {
                out.add(v);
            } else {
                throw CliException.usage("unknown " + what + " '" + g + "' (expected " + String.join(", ", allowed)
                        + (what.equals("report") ? " or all" : "") + ")");
            }
        }
        return out;
    }
}
