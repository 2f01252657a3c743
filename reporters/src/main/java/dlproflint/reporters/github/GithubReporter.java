package dlproflint.reporters.github;

import dlproflint.findings.Finding;
import dlproflint.findings.FindingOrder;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;
import dlproflint.findings.Units;
import dlproflint.reporters.ProfileNames;
import dlproflint.reporters.Reporter;
import dlproflint.reporters.SafeText;
import dlproflint.reporters.sarif.ArtifactRef;
import dlproflint.reporters.sarif.SarifOptions;
import dlproflint.reporters.sarif.SourceLocator;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * GitHub Actions workflow commands ({@code ruff --output-format github}): one annotation per finding,
 * {@code ::error file=models/net.py,line=42,title=dlprof-lint: dlprof/amp-not-used::message}, for a job log
 * without code scanning. Errors are {@code ::error}, warnings {@code ::warning}, notes {@code ::notice}; file and
 * line are the finding's place in the repository where one is known (its Python source line, else the SARIF
 * anchor, else the profile when it lies in the repository), else the annotation has none and shows on the run's
 * summary page. Findings come in the one report order, most severe and costly first (GitHub shows about ten
 * annotations of each kind per step).
 *
 * <p>Every profile string is data: control and bidi characters become visible escapes ({@link SafeText}), then
 * the workflow-command escapes apply ({@code %}, CR and LF in the message; also {@code :} and {@code ,} in
 * properties), so a kernel name cannot end its line and start a command of its own.
 */
public final class GithubReporter implements Reporter {
    public static final String FORMAT = "github";

    private final SarifOptions locations;

    /** @param locations repository root and anchor, as for SARIF; null places no finding */
    public GithubReporter(SarifOptions locations) {
        this.locations = locations;
    }

    @Override
    public void render(LintRun run, OutputStream out) throws IOException {
        SourceLocator locator = SourceLocator.optional(locations, "the GitHub annotations");
        List<String> stems = ProfileNames.stems(run.results());
        boolean several = run.results().size() > 1;
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < run.results().size(); i++) {
            ProfileResult r = run.results().get(i);
            for (Finding f : FindingOrder.sorted(r.findings())) {
                ArtifactRef where = locator == null ? null : locator.locateIfPossible(f, r.facts().profile().path());
                b.append(line(f, where, several ? stems.get(i) : null)).append('\n');
            }
        }
        out.write(b.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** One workflow command. */
    static String line(Finding f, ArtifactRef where, String profile) {
        StringBuilder b = new StringBuilder("::").append(command(f.severity()));
        StringBuilder props = new StringBuilder();
        if (where != null) {
            props.append("file=").append(property(SourceLocator.plainPath(where.uri()))).append(",line=").append(Math.max(1, where.line()));
        }
        if (props.length() > 0) props.append(',');
        props.append("title=").append(property("dlprof-lint: " + f.ruleId()));
        b.append(' ').append(props).append("::");
        StringBuilder message = new StringBuilder(text(f.problem() == null ? f.ruleId() : f.problem()));
        String impact = Units.impact(f.impact());
        if (impact != null) message.append('\n').append(impact);
        if (f.recommendation() != null && !f.recommendation().isBlank()) message.append('\n').append(text(f.recommendation()));
        if (profile != null) message.append("\nprofile: ").append(profile);
        if (f.helpUri() != null) message.append('\n').append(text(f.helpUri()));
        return b.append(data(message.toString())).toString();
    }

    static String command(Severity s) {
        Severity v = s == null ? Severity.WARNING : s;
        return switch (v) {
            case ERROR -> "error";
            case WARNING -> "warning";
            case NOTE -> "notice";
        };
    }

    /** Profile text with control and bidi characters made visible; its own newlines are kept as line breaks. */
    private static String text(String s) {
        return SafeText.escape(s, SafeText.KEEP_TAB_NEWLINE);
    }

    /** A workflow command's message: {@code %}, CR and LF escaped (GitHub turns them back into text). */
    static String data(String s) {
        return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
    }

    /** A property value: the message escapes plus {@code :} and {@code ,}, which end a property. */
    static String property(String s) {
        return data(SafeText.escape(s, SafeText.KEEP_NOTHING)).replace(":", "%3A").replace(",", "%2C");
    }
}
