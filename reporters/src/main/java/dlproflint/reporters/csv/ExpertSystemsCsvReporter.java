package dlproflint.reporters.csv;

import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.reporters.FindingOrder;
import dlproflint.reporters.ProfileNames;
import dlproflint.reporters.Reporter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * DLProf's {@code dlprof_expert_systems.csv}, byte for byte in layout: the lines
 * {@code Expert Systems Feedback} and {@code Problem,Recommendation}, then one row per finding with
 * both cells always quoted, LF line ends. DLProf writes one file per profile; when a run holds
 * several profiles, their rows follow each other and each problem starts with {@code [profile] }.
 */
public final class ExpertSystemsCsvReporter implements Reporter {
    public static final String FORMAT = "expert-systems-csv";

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public void render(LintRun run, OutputStream out) throws IOException {
        Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        w.write("Expert Systems Feedback\n");
        w.write("Problem,Recommendation\n");
        boolean several = run.results().size() > 1;
        List<String> names = ProfileNames.stems(run.results());
        for (int i = 0; i < run.results().size(); i++) {
            ProfileResult r = run.results().get(i);
            String prefix = several ? "[" + names.get(i) + "] " : "";
            for (Finding f : FindingOrder.sorted(r.findings())) {
                w.write(Csv.alwaysQuoted(prefix + nz(f.problem())) + "," + Csv.alwaysQuoted(nz(f.recommendation())) + "\n");
            }
        }
        w.flush();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
