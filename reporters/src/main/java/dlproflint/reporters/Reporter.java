package dlproflint.reporters;

import dlproflint.findings.LintRun;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Renders a whole {@link LintRun} in one format (its name, for {@code --report}, is where it is registered:
 * {@link Reporters}, or its {@link ReporterFactory#format()}). Implementations write UTF-8, flush, and never close
 * {@code out}: the caller owns the stream (stdout, or a temporary file that
 * {@link dlproflint.reporters.io.AtomicFiles} renames once the report is complete).
 * A reporter checks everything that can fail before it writes its first byte, so a
 * {@link ReportException} leaves nothing half-written on stdout.
 */
public interface Reporter {
    void render(LintRun run, OutputStream out) throws IOException;
}
