package dlproflint.cli;

import dlproflint.engine.LintRun;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The one place that talks to the reporters module's registry (json, sarif, csv, html), so a change of
 * its API touches this class only.
 */
final class ReportersBridge {
    private ReportersBridge() {
    }

    static boolean available(String format) {
        return false;
    }

    static void render(String format, LintRun run, ReportFormats.Context ctx, OutputStream out) throws IOException, CliException {
        throw CliException.usage("report format '" + format + "' is not available in this build");
    }
}
