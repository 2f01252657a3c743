package dlproflint.reporters.html;

import dlproflint.engine.LintRun;
import freemarker.core.TemplateClassResolver;
import freemarker.template.Configuration;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import freemarker.template.TemplateExceptionHandler;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;

/**
 * Renders a {@link LintRun} as one self-contained HTML file: the DLProf viewer's dashboard per profile
 * (inline SVG charts drawn in Java), the findings, and guidance. No network access, no external files;
 * readable with scripts and styles disabled; a Content-Security-Policy admits only the report's own
 * inline style and script.
 */
public final class HtmlReporter {
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

    /** The {@code --report} format name. */
    public String format() {
        return "html";
    }

    /** Writes the report as UTF-8 to {@code out}; flushes but does not close it. */
    public void render(LintRun run, OutputStream out) throws IOException {
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
        render(run, w);
        w.flush();
    }

    /** Writes the report to {@code out}; flushes but does not close it. */
    public void render(LintRun run, Writer out) throws IOException {
        Map<String, Object> model = new HashMap<>();
        model.put("report", ReportView.of(run));
        model.put("assets", assets);
        try {
            Template t = freemarker.getTemplate("report.ftlh");
            t.process(model, out);
        } catch (TemplateException e) {
            throw new IllegalStateException("HTML report template failed: " + e.getMessageWithoutStackTop(), e);
        }
        out.flush();
    }
}
