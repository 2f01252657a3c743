package dlproflint.cli;

import dlproflint.findings.Finding;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ReadOptions;
import dlproflint.findings.ProfileResult;
import dlproflint.reporters.dlprof.DlprofFormat;
import dlproflint.reporters.dlprof.DlprofReportKind;
import dlproflint.reporters.dlprof.DlprofReports;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The one place that calls the DLProf-format writers ({@code dlproflint.reporters.dlprof}). DLProf's
 * {@code expert_systems} report is the verdict of its detectors: its rows are the lint pipeline's findings,
 * with suppressions and the baseline applied exactly as in every other output.
 */
final class DlprofReportsBridge {
    /** The reports and formats a user asked for, checked. */
    record Selection(Set<DlprofReportKind> kinds, Set<DlprofFormat> formats) {
        boolean expertSystems() {
            return kinds.contains(DlprofReportKind.EXPERT_SYSTEMS);
        }
    }

    private DlprofReportsBridge() {
    }

    static Selection select(List<String> reports, List<String> formats) throws CliException {
        try {
            return new Selection(DlprofReportKind.parse(String.join(",", reports)), DlprofFormat.parse(String.join(",", formats)));
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
    }

    static List<String> fileNames(String base, Selection s) {
        List<String> out = new ArrayList<>();
        for (DlprofReportKind k : s.kinds()) {
            for (DlprofFormat f : s.formats()) out.add(DlprofReports.fileName(base, k, f));
        }
        return out;
    }

    /**
     * @param result the profile's facts and its findings from the lint pipeline (suppressions and baseline applied);
     *               the findings are used only by the expert-systems report
     */
    static List<Path> write(ProfileReader reader, Path profile, ReadOptions options, Selection s, Path dir, String base,
                            ProfileResult result) throws ProfileException, IOException {
        List<Finding> findings = s.expertSystems() ? result.findings() : null;
        try {
            return DlprofReports.write(result.facts(), reader.instances(profile, options), s.kinds(), s.formats(), dir, base, findings);
        } catch (IOException e) {
            if (e.getCause() instanceof ProfileException pe) throw pe;
            throw e;
        }
    }
}
