package dlproflint.cli;

import dlproflint.engine.Finding;
import dlproflint.engine.LintRun;
import dlproflint.engine.ProfileResult;
import dlproflint.engine.Severity;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The terminal report: per profile, its findings (most severe first) with problem, recommendation,
 * evidence and help link, then a one-line total. Colour only when asked for (never in files).
 */
final class TextReport {
    private static final String RESET = "\u001b[0m";
    private static final String BOLD = "\u001b[1m";
    private static final String DIM = "\u001b[2m";

    private final boolean color;

    TextReport(boolean color) {
        this.color = color;
    }

    void render(LintRun run, OutputStream stream) throws IOException {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8));
        int errors = 0;
        int warnings = 0;
        int notes = 0;
        int hidden = 0;
        for (ProfileResult r : run.results()) {
            out.println(paint(BOLD, r.facts().profile().path()));
            if (r.findings().isEmpty()) out.println("  no findings");
            for (Finding f : r.findings()) {
                switch (f.severity()) {
                    case ERROR -> errors++;
                    case WARNING -> warnings++;
                    case NOTE -> notes++;
                }
                out.println("  " + severity(f.severity()) + "  " + paint(BOLD, f.ruleId())
                        + (f.subject() == null ? "" : "  " + f.subject().name()));
                out.println("      " + f.problem());
                if (f.recommendation() != null && !f.recommendation().isBlank()) {
                    out.println("      fix: " + f.recommendation());
                }
                if (f.location() != null) out.println("      at " + f.location());
                if (f.evidence() != null && !f.evidence().isEmpty()) {
                    out.println(paint(DIM, "      evidence: " + evidence(f.evidence())));
                }
                if (f.helpUri() != null && !f.helpUri().isBlank()) out.println(paint(DIM, "      help: " + f.helpUri()));
            }
            hidden += r.suppressed().size();
            out.println();
        }
        int total = errors + warnings + notes;
        out.println(total + plural(total, " finding") + " (" + errors + plural(errors, " error") + ", " + warnings
                + plural(warnings, " warning") + ", " + notes + plural(notes, " note") + ")"
                + (hidden > 0 ? ", " + hidden + " suppressed or baselined" : "")
                + " in " + run.results().size() + plural(run.results().size(), " profile"));
        out.flush();
    }

    private String severity(Severity s) {
        String label = String.format("%-7s", s.label());
        return switch (s) {
            case ERROR -> paint("\u001b[31m", label);
            case WARNING -> paint("\u001b[33m", label);
            case NOTE -> paint("\u001b[36m", label);
        };
    }

    private String paint(String code, String text) {
        return color ? code + text + RESET : text;
    }

    private static String evidence(Map<String, Object> ev) {
        StringBuilder sb = new StringBuilder();
        ev.forEach((k, v) -> {
            if (sb.length() > 0) sb.append(", ");
            sb.append(k).append('=').append(v);
        });
        return sb.toString();
    }

    private static String plural(int n, String word) {
        return n == 1 ? word : word + "s";
    }
}
