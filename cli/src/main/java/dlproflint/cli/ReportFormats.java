package dlproflint.cli;

import dlproflint.findings.LintRun;
import dlproflint.findings.Severity;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The report formats of {@code --report}. The documented ones are always accepted by the parser; one
 * whose renderer is missing from this build (the HTML report is a plug-in) fails before any profile is read.
 */
public final class ReportFormats {
    public static final List<String> DOCUMENTED = List.of("text", "json", "sarif", "csv", "html", "markdown", "codequality",
            "github", "junit");

    /**
     * What renderers may need besides the run: colour for the terminal, the repository for SARIF (and whether it is
     * a git checkout or only the working directory), and the severity that fails the run (JUnit).
     */
    public record Context(boolean color, Path repoRoot, boolean repository, String sarifAnchor, Severity failOn) {
        /** In a git checkout, failing on errors. */
        public Context(boolean color, Path repoRoot, String sarifAnchor) {
            this(color, repoRoot, true, sarifAnchor, Severity.ERROR);
        }
    }

    private ReportFormats() {
    }

    /** Every format name {@code --report} accepts: the documented ones and whatever the registry offers. */
    public static Set<String> names() {
        Set<String> all = new TreeSet<>(DOCUMENTED);
        all.addAll(ReportersBridge.formats());
        return all;
    }

    public static void checkAvailable(String format) throws CliException {
        if (!ReportersBridge.available(format)) {
            throw CliException.usage("report format '" + format + "' is not available in this build");
        }
    }

    public static void render(String format, LintRun run, Context ctx, OutputStream out) throws IOException {
        ReportersBridge.render(format, run, ctx, out);
    }
}
