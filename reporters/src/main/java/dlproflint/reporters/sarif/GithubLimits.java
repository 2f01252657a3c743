package dlproflint.reporters.sarif;

/**
 * GitHub code scanning's limits on an uploaded SARIF file (docs: "SARIF support for code scanning",
 * sarif-limits); an upload over a maximum is rejected as a whole.
 */
public final class GithubLimits {
    public static final int MAX_RUNS = 20;
    public static final int MAX_RESULTS_PER_RUN = 25_000;
    public static final int MAX_RULES_PER_RUN = 25_000;
    /** 20 are accepted, only 10 are shown; we keep to what is shown. */
    public static final int MAX_TAGS = 10;
    public static final int MAX_NAME = 255;
    public static final int MAX_DESCRIPTION = 1024;
    public static final int MAX_HELP_TEXT = 1024;

    private GithubLimits() {
    }

    /** {@code s} cut to {@code max} characters with an ellipsis, never splitting a surrogate pair. */
    public static String truncate(String s, int max) {
        if (s == null || s.length() <= max) return s;
        int end = max - 1;
        if (Character.isHighSurrogate(s.charAt(end - 1))) end--;
        return s.substring(0, end) + "\u2026";
    }
}
