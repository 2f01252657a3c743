package dlproflint.cli;

import dlproflint.engine.LintRun;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The report formats of {@code --report} and how each is rendered. {@code text} is the CLI's own
 * terminal report; the others come from the reporters module.
 */
public final class ReportFormats {
    public static final List<String> NAMES = List.of("text", "json", "sarif", "csv", "html");

    /** What renderers may need besides the run: colour for the terminal, the repository for SARIF. */
    public record Context(boolean color, Path repoRoot, String sarifAnchor) {
    }

    private ReportFormats() {
    }

    /** Fails before any profile is read when this build cannot produce the format. */
    public static void checkAvailable(String format) throws CliException {
        if (!format.equals("text") && !ReportersBridge.available(format)) {
            throw CliException.usage("report format '" + format + "' is not available in this build");
        }
    }

    public static void render(String format, LintRun run, Context ctx, OutputStream out) throws IOException, CliException {
        if (format.equals("text")) {
            new TextReport(ctx.color()).render(run, out);
        } else {
            ReportersBridge.render(format, run, ctx, out);
        }
    }
}
