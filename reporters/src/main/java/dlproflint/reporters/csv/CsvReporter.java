package dlproflint.reporters.csv;

import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.facts.StackFrame;
import dlproflint.reporters.EvidenceValues;
import dlproflint.findings.FindingOrder;
import dlproflint.reporters.Formats;
import dlproflint.reporters.Reporter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * One row per finding, RFC 4180 (CRLF line ends, quotes doubled), every cell neutralised against
 * formula injection. Columns: {@link #HEADER}. Evidence is one cell of {@code key=value} pairs joined
 * by {@code "; "}, each value neutralised on its own.
 */
public final class CsvReporter implements Reporter {
    public static final String FORMAT = "csv";
    public static final List<String> HEADER = List.of("profile", "rule_id", "severity", "category", "subject",
            "problem", "recommendation", "evidence", "location", "help", "fingerprint");
    private static final String EOL = "\r\n";

    @Override
    public void render(LintRun run, OutputStream out) throws IOException {
        Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        CsvGenerator g = Csv.generator(w, EOL);
        Csv.row(g, HEADER);
        for (ProfileResult r : run.results()) {
            String profile = r.facts().profile().path();
            for (Finding f : FindingOrder.sorted(r.findings())) {
                Csv.row(g, List.of(nz(profile), nz(f.ruleId()), f.severity() == null ? "" : f.severity().label(),
                        nz(f.category()), subject(f), nz(f.problem()), nz(f.recommendation()), evidence(f),
                        location(f.location()), nz(f.helpUri()), dlproflint.findings.Fingerprint.of(f)));
            }
        }
        g.flush();
    }

    private static String subject(Finding f) {
        if (f.subject() == null) return "";
        String name = nz(f.subject().name());
        String ref = f.subject().ref();
        return name.isEmpty() || name.equals(f.subject().key()) ? ref : ref + " (" + name + ")";
    }

    static String evidence(Finding f) {
        StringJoiner j = new StringJoiner("; ");
        for (Map.Entry<String, Object> e : EvidenceValues.normalize(f.evidence()).entrySet()) {
            j.add(e.getKey() + "=" + Csv.neutralise(Formats.value(e.getValue())));
        }
        return j.toString();
    }

    private static String location(StackFrame sf) {
        return sf == null || sf.file() == null ? "" : sf.toString();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
