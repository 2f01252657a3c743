package dlproflint.cli;

/** A failure the user can fix, with the exit code it maps to; its message is printed as one line. */
public class CliException extends Exception {
    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public static CliException usage(String message) {
        return new CliException(ExitCodes.USAGE, message);
    }

    public int exitCode() {
        return exitCode;
    }
}
