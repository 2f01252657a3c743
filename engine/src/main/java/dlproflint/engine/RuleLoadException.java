package dlproflint.engine;

/**
 * A rule pack cannot be loaded: DRL syntax error, unknown fact type, duplicate rule id, missing
 * metadata, bad manifest. The message is {@code file:line: message}; the CLI exits 2.
 */
public class RuleLoadException extends Exception {
    private final String file;
    private final int line;

    public RuleLoadException(String file, int line, String message) {
        super((file == null ? "<rules>" : file) + (line > 0 ? ":" + line : "") + ": " + message);
        this.file = file;
        this.line = line;
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
    }
}
