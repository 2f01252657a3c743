package dlproflint.cli;

import dlproflint.findings.LintRun;
import dlproflint.reporters.ReportOptions;
import dlproflint.reporters.Reporters;
import dlproflint.reporters.sarif.SarifOptions;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * The one place that talks to the reporters module's registry, so a change of its API touches this
 * class only.
 */
final class ReportersBridge {
    private ReportersBridge() {
    }

    static boolean available(String format) {
        return Reporters.isKnown(format);
    }

    static java.util.Set<String> formats() {
        return Reporters.formats();
    }

    static void render(String format, LintRun run, ReportFormats.Context ctx, OutputStream out) throws IOException {
        SarifOptions sarif = new SarifOptions(ctx.repoRoot(), ctx.sarifAnchor() == null ? null : Path.of(ctx.sarifAnchor()),
                ctx.repository());
        Reporters.create(format, new ReportOptions(AnsiStyle.of(ctx.color()), sarif, ctx.failOn())).render(run, out);
    }
}
