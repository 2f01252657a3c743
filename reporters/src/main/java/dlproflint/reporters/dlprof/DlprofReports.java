package dlproflint.reporters.dlprof;

import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.facts.InstanceSource;
import dlproflint.facts.ProfileFacts;
import dlproflint.reporters.io.AtomicFiles;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Writes DLProf-format reports ({@code dlprof_summary.csv}, {@code dlprof_detailed.csv}, ...) into a
 * folder, with DLProf 1.8's sections, headers, column order, quoting and number formatting, so DLProf
 * users keep their spreadsheets. Each report is computed once and written to all requested formats
 * at the same time; every file is written atomically (complete or not at all).
 */
public final class DlprofReports {
    /** DLProf's default profile name ({@code --profile_name}), the prefix of every report file. */
    public static final String DEFAULT_BASE_NAME = "dlprof";

    private DlprofReports() {
    }

    /** As {@link #write(ProfileFacts, InstanceSource, Set, Set, Path, String, List)} with base name {@code dlprof} and no findings. */
    public static List<Path> write(ProfileFacts facts, InstanceSource instances, Set<DlprofReportKind> kinds,
                                   Set<DlprofFormat> formats, Path outDir) throws IOException {
        return write(facts, instances, kinds, formats, outDir, DEFAULT_BASE_NAME, null);
    }

    /**
     * Writes the chosen reports into {@code outDir} (created when missing).
     *
     * @param facts     the profile's facts
     * @param instances the profile's GPU work instances; needed only for {@link DlprofReportKind#ITERATION}
     * @param baseName  prefix of the file names (spaces become underscores, as in DLProf)
     * @param findings  the lint run's findings for these facts; needed only for {@link DlprofReportKind#EXPERT_SYSTEMS}
     * @return the files written, in report then format order
     * @throws IOException when a file cannot be written or the instances cannot be streamed (then with the
     *                     reader's exception as its cause)
     */
    public static List<Path> write(ProfileFacts facts, InstanceSource instances, Set<DlprofReportKind> kinds,
                                   Set<DlprofFormat> formats, Path outDir, String baseName,
                                   List<Finding> findings) throws IOException {
        Objects.requireNonNull(facts, "facts");
        Objects.requireNonNull(outDir, "outDir");
        if (kinds.isEmpty()) throw new IllegalArgumentException("no report selected");
        if (formats.isEmpty()) throw new IllegalArgumentException("no report format selected");
        String base = baseName == null || baseName.isBlank() ? DEFAULT_BASE_NAME : baseName.trim().replace(' ', '_');
        if (base.contains("/") || base.contains("\\")) {
            throw new IllegalArgumentException("report base name '" + baseName + "' must not contain a path separator");
        }
        if (kinds.contains(DlprofReportKind.ITERATION) && instances == null) {
            throw new IllegalArgumentException("the iteration report needs the profile's instance stream");
        }
        if (kinds.contains(DlprofReportKind.EXPERT_SYSTEMS) && findings == null) {
            throw new IllegalArgumentException("the expert_systems report needs the findings of a lint run");
        }
        if (Files.exists(outDir) && !Files.isDirectory(outDir)) {
            throw new IOException(outDir + ": output path exists and is not a directory");
        }
        Files.createDirectories(outDir);

        List<Path> written = new ArrayList<>();
        for (DlprofReportKind kind : EnumSet.copyOf(kinds)) {
            List<Path> targets = new ArrayList<>();
            List<DlprofFormat> fmts = new ArrayList<>(EnumSet.copyOf(formats));
            for (DlprofFormat f : fmts) targets.add(outDir.resolve(fileName(base, kind, f)));
            DlprofReport report = kind == DlprofReportKind.EXPERT_SYSTEMS
                    ? ExpertSystemsReport.of(findings) : report(kind, facts, instances);
            writeAll(report, fmts, targets, 0, new ArrayList<>());
            written.addAll(targets);
        }
        return written;
    }

    /** {@code dlprof_detailed.csv} for base {@code dlprof}, report DETAIL, format CSV. */
    public static String fileName(String base, DlprofReportKind kind, DlprofFormat format) {
        return base + "_" + kind.fileStem() + "." + format.extension();
    }

    static DlprofReport report(DlprofReportKind kind, ProfileFacts facts, InstanceSource instances) {
        return switch (kind) {
            case SUMMARY -> new SummaryReport(facts);
            case DETAIL -> new DetailedReport(facts);
            case ITERATION -> new IterationReport(instances, Layout.of(facts));
            case KERNEL -> new KernelReport(facts);
            case TENSOR -> new TensorCoreReport(facts);
            case OP_TYPE -> new OpTypeReport(facts);
            case GROUP_NODE -> new GroupOpReport(facts);
            case EXPERT_SYSTEMS -> throw new IllegalArgumentException("the expert_systems report is made from findings");
        };
    }

    /** DLProf's {@code dlprof_expert_systems.csv} of a whole lint run, for the {@code expert-systems-csv} lint format. */
    public static void writeExpertSystemsCsv(LintRun run, OutputStream out) throws IOException {
        render(ExpertSystemsReport.of(run), DlprofFormat.CSV, out);
    }

    /** Renders one report into a stream in one format (for tests and callers that manage files). */
    static void render(DlprofReport report, DlprofFormat format, OutputStream out) throws IOException {
        ReportWriter w = open(format, out);
        report.render(w);
        w.finish();
    }

    /**
     * Opens the files one inside the other (each {@link AtomicFiles#write} call holds the next), so
     * the report is rendered once into all of them; an error leaves none of them behind.
     */
    private static void writeAll(DlprofReport report, List<DlprofFormat> formats, List<Path> targets, int i,
                                 List<ReportWriter> open) throws IOException {
        if (i == targets.size()) {
            report.render(open.size() == 1 ? open.get(0) : new TeeReportWriter(open));
            return;
        }
        AtomicFiles.write(targets.get(i), out -> {
            ReportWriter w = open(formats.get(i), out);
            open.add(w);
            writeAll(report, formats, targets, i + 1, open);
            w.finish();
        });
    }

    private static ReportWriter open(DlprofFormat format, OutputStream out) throws IOException {
        return switch (format) {
            case CSV -> new CsvReportWriter(out);
            case JSON -> new JsonReportWriter(out);
        };
    }
}
