package dlproflint.reporters.html;

import dlproflint.reporters.ReportOptions;
import dlproflint.reporters.Reporter;
import dlproflint.reporters.ReporterFactory;

/** Registers the {@code html} format with {@link dlproflint.reporters.Reporters} through the ServiceLoader. */
public final class HtmlReporterFactory implements ReporterFactory {
    @Override
    public String format() {
        return HtmlReporter.FORMAT;
    }

    @Override
    public Reporter create(ReportOptions options) {
        return new HtmlReporter();
    }
}
