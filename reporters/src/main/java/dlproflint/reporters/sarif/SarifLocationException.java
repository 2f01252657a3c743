package dlproflint.reporters.sarif;

import dlproflint.reporters.ReportException;

/**
 * No location GitHub code scanning accepts can be given to a result (GitHub rejects the whole upload
 * when one result lacks a physical location), or the anchor file is misconfigured. The CLI exits 2.
 */
public class SarifLocationException extends ReportException {
    public SarifLocationException(String message) {
        super(message);
    }
}
