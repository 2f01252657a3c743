package dlproflint.reporters;

import dlproflint.findings.Severity;

import dlproflint.reporters.sarif.SarifOptions;
import dlproflint.reporters.text.TextStyle;

/**
 * What the caller decides for the reporters; reporters consult nothing global (no environment, no
 * terminal detection), so output depends only on the run and these options.
 *
 * @param style how the text report styles words: {@link TextStyle#PLAIN}, or the cli's ANSI colours (the cli resolves
 *              {@code --color} and {@code NO_COLOR})
 * @param sarif repository root and anchor file for SARIF and Code Quality locations, or null when neither is written
 * @param failOn the lowest severity that fails the run ({@code --fail-on}), or null when nothing fails it; reports
 *               that speak of passing and failing (JUnit) follow it
 */
public record ReportOptions(TextStyle style, SarifOptions sarif, Severity failOn) {
    public static final ReportOptions PLAIN = new ReportOptions(null);

    /** No colour, failing on errors, as {@code --fail-on} does by default. */
    public ReportOptions(SarifOptions sarif) {
        this(TextStyle.PLAIN, sarif, Severity.ERROR);
    }
}
