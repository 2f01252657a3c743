package dlproflint.reporters;

import dlproflint.reporters.sarif.SarifOptions;

/**
 * What the caller decides for the reporters; reporters consult nothing global (no environment, no
 * terminal detection), so output depends only on the run and these options.
 *
 * @param color ANSI colour in the text report (the CLI resolves {@code --color} and {@code NO_COLOR})
 * @param sarif repository root and anchor file for SARIF and Code Quality locations, or null when neither is written
 */
public record ReportOptions(boolean color, SarifOptions sarif) {
    public static final ReportOptions PLAIN = new ReportOptions(false, null);
}
