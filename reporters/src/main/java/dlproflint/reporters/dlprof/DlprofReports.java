package dlproflint.reporters.dlprof;

import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ReadOptions;
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

    /**
     * Writes the chosen reports with the default base name {@code dlprof}.
     *
     * @param profile the profile file (read again only for the iteration report)
     * @param facts   facts the reader produced from {@code profile} with {@code options}
     * @param reader  the reader of {@code profile}; needed only for {@link DlprofReportKind#ITERATION}
     * @param options the options the facts were read with (key node, iteration range)
     * @param outDir  created when missing
     * @return the files written, in report then format order
     */
    public static List<Path> write(Path profile, ProfileFacts facts, ProfileReader reader, ReadOptions options,
                                   Set<DlprofReportKind> kinds, Set<DlprofFormat> formats, Path outDir)
            throws IOException, ProfileException {
        return write(profile, facts, reader, options, kinds, formats, outDir, DEFAULT_BASE_NAME);
    }

    /** As {@link #write(Path, ProfileFacts, ProfileReader, ReadOptions, Set, Set, Path)} with a base name (spaces become underscores, as in DLProf). */
    public static List<Path> write(Path profile, ProfileFacts facts, ProfileReader reader, ReadOptions options,
                                   Set<DlprofReportKind> kinds, Set<DlprofFormat> formats, Path outDir,
                                   String baseName) throws IOException, ProfileException {
        Objects.requireNonNull(facts, "facts");
        Objects.requireNonNull(outDir, "outDir");
        if (kinds.isEmpty()) throw new IllegalArgumentException("no report selected");
        if (formats.isEmpty()) throw new IllegalArgumentException("no report format selected");
        String base = baseName == null || baseName.isBlank() ? DEFAULT_BASE_NAME : baseName.trim().replace(' ', '_');
        if (base.contains("/") || base.contains("\\")) {
            throw new IllegalArgumentException("report base name '" + baseName + "' must not contain a path separator");
        }
        if (kinds.contains(DlprofReportKind.ITERATION) && (reader == null || profile == null)) {
            throw new IllegalArgumentException("the iteration report needs the profile and its reader");
        }
        if (Files.exists(outDir) && !Files.isDirectory(outDir)) {
            throw new IOException(outDir + ": output path exists and is not a directory");
        }
        Files.createDirectories(outDir);
        ReadOptions opts = options == null ? ReadOptions.DEFAULT : options;

        List<Path> written = new ArrayList<>();
        for (DlprofReportKind kind : EnumSet.copyOf(kinds)) {
            List<Path> targets = new ArrayList<>();
            List<DlprofFormat> fmts = new ArrayList<>(EnumSet.copyOf(formats));
            for (DlprofFormat f : fmts) targets.add(outDir.resolve(fileName(base, kind, f)));
            DlprofReport report = report(kind, profile, facts, reader, opts);
            try {
                writeAll(report, fmts, targets, 0, new ArrayList<>());
            } catch (ProfileFailure e) {
                throw e.cause;
            }
            written.addAll(targets);
        }
        return written;
    }

    /** {@code dlprof_detailed.csv} for base {@code dlprof}, report DETAIL, format CSV. */
    public static String fileName(String base, DlprofReportKind kind, DlprofFormat format) {
        return base + "_" + kind.fileStem() + "." + format.extension();
    }

    static DlprofReport report(DlprofReportKind kind, Path profile, ProfileFacts facts, ProfileReader reader,
                               ReadOptions options) {
        return switch (kind) {
            case SUMMARY -> new SummaryReport(facts);
            case DETAIL -> new DetailedReport(facts);
            case ITERATION -> new IterationReport(profile, reader, options, Layout.of(facts));
            case KERNEL -> new KernelReport(facts);
            case TENSOR -> new TensorCoreReport(facts);
            case OP_TYPE -> new OpTypeReport(facts);
            case GROUP_NODE -> new GroupOpReport(facts);
        };
    }

    /** Renders one report into a stream in one format (for tests and callers that manage files). */
    static void render(DlprofReport report, DlprofFormat format, OutputStream out) throws IOException, ProfileException {
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
            try {
                report.render(open.size() == 1 ? open.get(0) : new TeeReportWriter(open));
            } catch (ProfileException e) {
                throw new ProfileFailure(e);
            }
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

    /** Carries a reader failure through {@link AtomicFiles.Content}, which may only throw IOException. */
    private static final class ProfileFailure extends IOException {
        private static final long serialVersionUID = 1L;
        final transient ProfileException cause;

        ProfileFailure(ProfileException cause) {
            super(cause.getMessage(), cause);
            this.cause = cause;
        }
    }
}
