package dlproflint.reporters.codequality;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;
import dlproflint.findings.FindingOrder;
import dlproflint.findings.Fingerprint;
import dlproflint.reporters.ProfileNames;
import dlproflint.reporters.Reporter;
import dlproflint.reporters.sarif.ArtifactRef;
import dlproflint.reporters.sarif.SarifOptions;
import dlproflint.reporters.sarif.SourceLocator;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * GitLab's Code Quality report ({@code artifacts:reports:codequality}): a JSON array with one issue per
 * finding, holding the fields GitLab documents as required ({@code description}, {@code check_name},
 * {@code fingerprint}, {@code severity}, {@code location.path}, {@code location.lines.begin}).
 * Findings are placed in the repository as for SARIF ({@link SourceLocator}: the op's Python line, else the
 * anchor file, else the profile). GitLab shows one issue per fingerprint, so the fingerprint covers the
 * profile as well as the finding: the same problem in two ranks stays two issues.
 */
public final class CodeQualityReporter implements Reporter {
    public static final String FORMAT = "codequality";
    private static final ObjectMapper JSON = dlproflint.reporters.SafeJson.mapper().enable(SerializationFeature.INDENT_OUTPUT).build();

    private final SarifOptions locations;

    /** @param locations repository root and anchor file, as for SARIF */
    public CodeQualityReporter(SarifOptions locations) {
        this.locations = locations;
    }

    @JsonPropertyOrder({"description", "check_name", "fingerprint", "severity", "location"})
    record Issue(String description, String check_name, String fingerprint, String severity, Location location) {
    }

    record Location(String path, Lines lines) {
    }

    record Lines(int begin) {
    }

    @Override
    public void render(LintRun run, OutputStream out) throws IOException {
        // Located in full before the first byte is written: an unplaceable finding leaves nothing behind.
        byte[] bytes = JSON.writeValueAsBytes(issues(run));
        out.write(bytes);
        out.write('\n');
        out.flush();
    }

    List<Issue> issues(LintRun run) throws IOException {
        SourceLocator locator = new SourceLocator(locations, "the Code Quality report");
        List<String> stems = ProfileNames.stems(run.results());
        boolean several = run.results().size() > 1;
        List<Issue> issues = new ArrayList<>();
        for (int i = 0; i < run.results().size(); i++) {
            ProfileResult r = run.results().get(i);
            String stem = stems.get(i);
            for (Finding f : FindingOrder.sorted(r.findings())) {
                ArtifactRef where = locator.locate(f, r.facts().profile().path());
                String description = (f.problem() == null ? f.ruleId() : f.problem()) + (several ? " [" + stem + "]" : "");
                issues.add(new Issue(description, f.ruleId(),
                        Fingerprint.sha256Hex(stem + "\0" + Fingerprint.of(f)).substring(0, 32),
                        severity(f.severity()), new Location(SourceLocator.plainPath(where.uri()), new Lines(Math.max(1, where.line())))));
            }
        }
        return issues;
    }

    /** GitLab's five levels; ours map onto the middle and bottom of the scale ({@code blocker} is left to people). */
    static String severity(Severity s) {
        Severity v = s == null ? Severity.WARNING : s;
        return switch (v) {
            case ERROR -> "critical";
            case WARNING -> "major";
            case NOTE -> "info";
        };
    }
}
