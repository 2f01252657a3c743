package dlproflint.reporters.html;

import dlproflint.findings.LintRun;
import dlproflint.reporters.ReportException;
import dlproflint.reporters.Reporter;
import freemarker.core.TemplateClassResolver;
import freemarker.template.Configuration;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import freemarker.template.TemplateExceptionHandler;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;

/**
 * Renders a {@link LintRun} as one self-contained HTML file: the DLProf viewer per profile (the dashboard with
 * inline SVG charts drawn in Java, and every other view as interactive tables over data embedded once, see
 * {@link dlproflint.reporters.html.viewer.Viewer}), the findings with their drill-down, and guidance. No
 * network access, no external files; readable with scripts and styles disabled; a Content-Security-Policy
 * admits only the report's own inline style and script.
 */
public final class HtmlReporter implements Reporter {
    public static final String FORMAT = "html";
    private static final String TEMPLATES = "/dlproflint/reporters/html";
    private final Configuration freemarker;
    private final InlineAssets assets;

    public HtmlReporter() {
        Configuration c = new Configuration(Configuration.VERSION_2_3_34);
        c.setClassForTemplateLoading(HtmlReporter.class, TEMPLATES);
        c.setDefaultEncoding("UTF-8");
        c.setOutputEncoding("UTF-8");
        c.setLocale(Locale.ROOT);
        c.setNumberFormat("computer");
        c.setTimeZone(TimeZone.getTimeZone("UTC"));
        c.setRecognizeStandardFileExtensions(true); // .ftlh = HTML output format with auto-escaping
        c.setTemplateExceptionHandler(TemplateExceptionHandler.RETHROW_HANDLER);
        c.setLogTemplateExceptions(false);
        c.setWrapUncheckedExceptions(true);
        c.setFallbackOnNullLoopVariable(false);
        c.setAPIBuiltinEnabled(false);
        c.setNewBuiltinClassResolver(TemplateClassResolver.ALLOWS_NOTHING_RESOLVER);
        c.setObjectWrapper(new CleaningObjectWrapper());
        this.freemarker = c;
        this.assets = InlineAssets.load();
    }

    /**
     * Writes the report as UTF-8 to {@code out}; flushes but does not close it. The page is rendered in
     * memory first (each profile's data is held to a budget of a few megabytes), so a template failure writes
     * nothing.
     */
    @Override
    public void render(LintRun run, OutputStream out) throws IOException {
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
        w.write(renderToString(run));
        w.flush();
    }

    /** The whole report as a string. */
    public String renderToString(LintRun run) throws ReportException {
        Map<String, Object> model = new HashMap<>();
        model.put("report", ReportView.of(run));
        model.put("assets", assets);
        StringWriter page = new StringWriter(64 * 1024);
        try {
            Template t = freemarker.getTemplate("report.ftlh");
            t.process(model, page);
        } catch (TemplateException | IOException e) {
            throw new ReportException("cannot render the HTML report: " + oneLine(e));
        }
        return page.toString();
    }

    private static String oneLine(Exception e) {
        String m = e instanceof TemplateException te ? te.getMessageWithoutStackTop() : e.getMessage();
        return m == null ? e.getClass().getSimpleName() : dlproflint.findings.OneLine.of(m.lines().findFirst().orElse(m));
    }
}
