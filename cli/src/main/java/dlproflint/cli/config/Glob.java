package dlproflint.cli.config;

/**
 * Glob matching for suppressions: {@code *} is any run of characters (slashes and colons included),
 * {@code ?} exactly one character (UTF-16 unit), everything else literal.
 *
 * <p>Time is linear in the text: the pattern is split at its stars; the part before the first star
 * must match at the start, the part after the last at the end, and every part in between is found at its
 * leftmost place after the previous one (leftmost is always right, because a star can absorb whatever lies
 * between two parts). So no position of the text is revisited for the same part: at most
 * {@code text length × pattern length} character comparisons, where a backtracking regex ({@code .*a.*b.*c})
 * took minutes on a 200 KB op name.
 */
final class Glob {
    private Glob() {
    }

    static boolean matches(String glob, CharSequence text) {
        if (text == null) text = "";
        int n = text.length();
        int firstStar = glob.indexOf('*');
        if (firstStar < 0) return n == glob.length() && partAt(glob, 0, glob.length(), text, 0);
        int lastStar = glob.lastIndexOf('*');
        int headLen = firstStar;
        int tailLen = glob.length() - lastStar - 1;
        if (headLen + tailLen > n) return false;
        if (!partAt(glob, 0, headLen, text, 0)) return false;
        if (!partAt(glob, lastStar + 1, glob.length(), text, n - tailLen)) return false;
        int pos = headLen;
        int end = n - tailLen;
        int from = firstStar + 1;
        while (from <= lastStar) {
            int to = glob.indexOf('*', from);
            if (to > from) {
                int at = find(glob, from, to, text, pos, end);
                if (at < 0) return false;
                pos = at + (to - from);
            }
            from = to + 1;
        }
        return true;
    }

    /** Leftmost place in {@code text[pos, end)} where {@code glob[from, to)} (no stars) matches, or -1. */
    private static int find(String glob, int from, int to, CharSequence text, int pos, int end) {
        int len = to - from;
        for (int at = pos; at + len <= end; at++) {
            if (partAt(glob, from, to, text, at)) return at;
        }
        return -1;
    }

    /** Whether {@code glob[from, to)} (no stars) matches the text at {@code at}. */
    private static boolean partAt(String glob, int from, int to, CharSequence text, int at) {
        for (int i = from; i < to; i++) {
            char g = glob.charAt(i);
            if (g != '?' && g != text.charAt(at + i - from)) return false;
        }
        return true;
    }
}
