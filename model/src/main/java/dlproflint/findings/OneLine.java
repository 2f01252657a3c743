package dlproflint.findings;

/**
 * The one way an error or a name from a profile is put on a single line for a terminal or a log: line breaks and
 * runs of white space collapse to one space, other control characters (escape sequences from a file or range
 * name) become {@code ?}, and the text is cut at {@link #MAX} characters.
 */
public final class OneLine {
    /** Longest line kept; a longer message is cut and ends with "...". */
    public static final int MAX = 500;

    private OneLine() {
    }

    public static String of(String s) {
        if (s == null) return "";
        String m = s.replaceAll("\\s*[\\r\\n]+\\s*", " ").replaceAll("[\\p{Cntrl}&&[^\\t]]", "?").replace('\t', ' ').strip();
        return m.length() > MAX ? m.substring(0, MAX) + "..." : m;
    }

    /** An exception's message (its class name when it has none) on one line. */
    public static String of(Throwable e) {
        return of(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    }
}
