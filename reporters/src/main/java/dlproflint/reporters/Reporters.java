package dlproflint.reporters;

import dlproflint.reporters.codequality.CodeQualityReporter;
import dlproflint.reporters.github.GithubReporter;
import dlproflint.reporters.junit.JunitReporter;
import dlproflint.reporters.csv.CsvReporter;
import dlproflint.reporters.csv.ExpertSystemsCsvReporter;
import dlproflint.reporters.json.JsonReporter;
import dlproflint.reporters.markdown.MarkdownReporter;
import dlproflint.reporters.sarif.SarifReporter;
import dlproflint.reporters.text.TextReporter;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Report formats by name, for {@code --report FORMAT[=PATH]}: the built-in ones plus any
 * {@link ReporterFactory} found through {@link ServiceLoader} (the HTML report).
 */
public final class Reporters {
    private static final Map<String, Function<ReportOptions, Reporter>> BUILTIN = Map.of(
            TextReporter.FORMAT, o -> new TextReporter(o.style()),
            JsonReporter.FORMAT, o -> new JsonReporter(),
            SarifReporter.FORMAT, o -> new SarifReporter(o.sarif()),
            CsvReporter.FORMAT, o -> new CsvReporter(),
            ExpertSystemsCsvReporter.FORMAT, o -> new ExpertSystemsCsvReporter(),
            MarkdownReporter.FORMAT, o -> new MarkdownReporter(),
            CodeQualityReporter.FORMAT, o -> new CodeQualityReporter(o.sarif()),
            GithubReporter.FORMAT, o -> new GithubReporter(o.sarif()),
            JunitReporter.FORMAT, o -> new JunitReporter(o.failOn(), o.sarif()));

    private Reporters() {
    }

    /** Every known format name, sorted. */
    public static java.util.SortedSet<String> formats() {
        return new java.util.TreeSet<>(all().keySet());
    }

    public static boolean isKnown(String format) {
        return all().containsKey(format);
    }

    /**
     * @throws IllegalArgumentException naming the format and the known ones, for a usage error (exit 2)
     */
    public static Reporter create(String format, ReportOptions options) {
        Function<ReportOptions, Reporter> f = all().get(format);
        if (f == null) {
            throw new IllegalArgumentException("unknown report format '" + format + "' (expected one of "
                    + String.join(", ", formats()) + ")");
        }
        return f.apply(options == null ? ReportOptions.PLAIN : options);
    }

    private static Map<String, Function<ReportOptions, Reporter>> all() {
        Map<String, Function<ReportOptions, Reporter>> m = new TreeMap<>(BUILTIN);
        for (ReporterFactory factory : ServiceLoader.load(ReporterFactory.class, Reporters.class.getClassLoader())) {
            m.putIfAbsent(factory.format(), factory::create);
        }
        return m;
    }
}
