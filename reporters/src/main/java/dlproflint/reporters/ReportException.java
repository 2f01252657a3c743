package dlproflint.reporters;

import java.io.IOException;

/**
 * A report cannot be produced from this run and these options (for example a SARIF result with no
 * location GitHub would accept). The message is one line meant for the user; the CLI exits 2.
 * It is an {@link IOException} so it passes through {@link dlproflint.reporters.io.AtomicFiles},
 * which then removes the temporary file.
 */
public class ReportException extends IOException {
    public ReportException(String message) {
        super(message);
    }
}
