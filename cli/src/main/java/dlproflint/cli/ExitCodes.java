package dlproflint.cli;

/** The command's exit codes (docs/cli.md); picocli's OK/USAGE agree with ours. */
public final class ExitCodes {
    /** Ran; no finding at or above {@code --fail-on}. */
    public static final int OK = 0;
    /** Ran; findings at or above {@code --fail-on}. */
    public static final int FINDINGS = 1;
    /** Usage, configuration or rule-pack error. */
    public static final int USAGE = 2;
    /** A profile is unreadable or unsupported. */
    public static final int PROFILE = 3;
    /**
     * {@code dlprof-lint run}: the training command failed (its exit code is named) or recorded no step; when it
     * failed after the capture, the capture is still linted and reported.
     */
    public static final int RUN = 4;
    /** A bug in dlprof-lint (EX_SOFTWARE). */
    public static final int INTERNAL = 70;

    private ExitCodes() {
    }
}
