package dlproflint.cli;

import dlproflint.engine.LintEngine;
import dlproflint.engine.LintRun;
import dlproflint.engine.ProfileResult;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ProfileFacts;
import dlproflint.reporters.Reporters;
import dlproflint.reporters.ReportOptions;
import dlproflint.reporters.csv.ExpertSystemsCsvReporter;
import dlproflint.reporters.dlprof.DlprofFormat;
import dlproflint.reporters.dlprof.DlprofReportKind;
import dlproflint.reporters.dlprof.DlprofReports;
import dlproflint.reporters.io.AtomicFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The one place that calls the DLProf-format writers ({@code dlproflint.reporters.dlprof}). DLProf's
 * {@code expert_systems} report is not a table of the profile but the verdict of its detectors, so it
 * is made here by linting the facts with the built-in packs ({@code <base>_expert_systems.csv}).
 */
final class DlprofReportsBridge {
    static final String EXPERT_SYSTEMS = "expert_systems";

    /** The reports and formats a user asked for, checked. */
    record Selection(Set<DlprofReportKind> kinds, boolean expertSystems, Set<DlprofFormat> formats) {
    }

    private DlprofReportsBridge() {
    }

    static Selection select(List<String> reports, List<String> formats) throws CliException {
        List<String> names = new ArrayList<>();
        boolean expert = false;
        for (String r : reports) {
            if (r.trim().toLowerCase(Locale.ROOT).equals(EXPERT_SYSTEMS)) expert = true;
            else names.add(r);
        }
        try {
            Set<DlprofReportKind> kinds = names.isEmpty() ? EnumSet.noneOf(DlprofReportKind.class)
                    : DlprofReportKind.parse(String.join(",", names));
            return new Selection(kinds, expert, DlprofFormat.parse(String.join(",", formats)));
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
    }

    static List<String> fileNames(String base, Selection s) {
        List<String> out = new ArrayList<>();
        for (DlprofReportKind k : s.kinds()) {
            for (DlprofFormat f : s.formats()) out.add(DlprofReports.fileName(base, k, f));
        }
        if (s.expertSystems()) out.add(base + "_" + EXPERT_SYSTEMS + ".csv");
        return out;
    }

    static List<Path> write(ProfileReader reader, Path profile, ReadOptions options, Selection s, Path dir, String base,
                            LintEngine engine, String given) throws ProfileException, IOException {
        ProfileFacts facts = reader.read(profile, options);
        List<Path> written = new ArrayList<>();
        if (!s.kinds().isEmpty()) {
            written.addAll(DlprofReports.write(profile, facts, reader, options, s.kinds(), s.formats(), dir, base));
        }
        if (s.expertSystems()) {
            LintRun run = new LintRun(ToolVersion.get(), engine.packs(), engine.rules(),
                    List.of(new ProfileResult(facts, engine.lint(facts), List.of())));
            Path target = dir.resolve(base + "_" + EXPERT_SYSTEMS + ".csv");
            AtomicFiles.write(target, out -> Reporters.create(ExpertSystemsCsvReporter.FORMAT, ReportOptions.PLAIN).render(run, out));
            written.add(target);
        }
        return written;
    }
}
