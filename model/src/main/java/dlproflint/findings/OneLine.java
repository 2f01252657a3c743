package dlproflint.findings;

/**
 * The one way an error or a name from a profile is put on a single line for a terminal or a log: line breaks and
 * runs of white space collapse to one space, other control characters (escape sequences from a file or range
 * name) and the invisible characters that reorder or hide text (bidirectional overrides and isolates, line and
 * paragraph separators, the byte-order mark) become {@code ?}, and a text longer than {@link #MAX} characters
 * loses its middle: the start names the file and the end says what is wrong with it, so a 600-byte path does not
 * push the problem off the line.
 */
public final class OneLine {
    /** Longest line kept; a longer message keeps its start and its end, joined by "...". */
    public static final int MAX = 500;

    /** Bidirectional marks, embeddings, overrides and isolates, the line and paragraph separators, the BOM. */
    private static final java.util.regex.Pattern INVISIBLE =
            java.util.regex.Pattern.compile("[\\u061C\\u200E\\u200F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069\\uFEFF]");

    private OneLine() {
    }

    public static String of(String s) {
        if (s == null) return "";
        String m = INVISIBLE.matcher(s.replaceAll("\\s*[\\r\\n]+\\s*", " ").replaceAll("[\\p{Cntrl}&&[^\\t]]", "?"))
                .replaceAll("?").replace('\t', ' ').strip();
        if (m.length() <= MAX) return m;
        int head = MAX * 2 / 5;
        return m.substring(0, head) + "..." + m.substring(m.length() - (MAX - head));
    }

    /** An exception's message (its class name when it has none) on one line. */
    public static String of(Throwable e) {
        return of(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    }
}
