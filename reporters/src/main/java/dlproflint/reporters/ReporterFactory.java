package dlproflint.reporters;

/**
 * Service-provider interface for report formats that live outside this package (the HTML report):
 * list the implementation in {@code META-INF/services/dlproflint.reporters.ReporterFactory} and
 * {@link Reporters} finds it. The built-in formats are registered directly.
 */
public interface ReporterFactory {
    String format();

    Reporter create(ReportOptions options);
}
