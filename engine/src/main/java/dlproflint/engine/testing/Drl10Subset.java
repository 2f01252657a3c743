package dlproflint.engine.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * Flags DRL that works today (DRL6 is Drools 10.1's default) but not in the DRL10 language level:
 * {@code &&}/{@code ||} between patterns, half-constraints ({@code x > 1 && < 5}) and annotations
 * inside patterns. Drools 10.1 only logs a deprecation for these, so a rule would silently break
 * on the next language level; the meta-checks turn them into test failures. A small lexical scan of
 * the {@code when} parts (strings and comments skipped, parentheses counted) is enough for these
 * three constructs.
 */
public final class Drl10Subset {
    private Drl10Subset() {
    }

    /** {@code <}, {@code >}, {@code ==}, {@code !=} (a {@code !} alone is a negation, not a half-constraint). */
    private static boolean startsWithOperator(String s, int k) {
        char c = s.charAt(k);
        if (c == '<' || c == '>') return true;
        return (c == '=' || c == '!') && k + 1 < s.length() && s.charAt(k + 1) == '=';
    }

    /** Problems as {@code line N: ...}, in file order. */
    public static List<String> violations(String drl) {
        List<String> out = new ArrayList<>();
        int line = 1;
        int depth = 0;
        boolean lhs = false;
        int n = drl.length();
        for (int i = 0; i < n; i++) {
            char c = drl.charAt(i);
            if (c == '\n') { line++; continue; }
            if (c == '/' && i + 1 < n && drl.charAt(i + 1) == '/') { // line comment
                while (i + 1 < n && drl.charAt(i + 1) != '\n') i++;
                continue;
            }
            if (c == '/' && i + 1 < n && drl.charAt(i + 1) == '*') { // block comment
                i += 2;
                while (i + 1 < n && !(drl.charAt(i) == '*' && drl.charAt(i + 1) == '/')) {
                    if (drl.charAt(i) == '\n') line++;
                    i++;
                }
                i++;
                continue;
            }
            if (c == '"' || c == '\'') { // string literal
                i++;
                while (i < n && drl.charAt(i) != c) {
                    if (drl.charAt(i) == '\\') i++;
                    else if (drl.charAt(i) == '\n') line++;
                    i++;
                }
                continue;
            }
            if (Character.isLetter(c) && (i == 0 || !Character.isJavaIdentifierPart(drl.charAt(i - 1)))) {
                int j = i;
                while (j < n && Character.isJavaIdentifierPart(drl.charAt(j))) j++;
                String word = drl.substring(i, j);
                if (depth == 0 && word.equals("when")) lhs = true;
                else if (depth == 0 && (word.equals("then") || word.equals("end"))) lhs = false;
                i = j - 1;
                continue;
            }
            if (!lhs) continue;
            if (c == '(') depth++;
            else if (c == ')') depth = Math.max(0, depth - 1);
            else if ((c == '&' || c == '|') && i + 1 < n && drl.charAt(i + 1) == c) {
                String op = "" + c + c;
                if (depth == 0) {
                    out.add("line " + line + ": '" + op + "' between patterns is not DRL10 (write the conditions in one pattern, or use 'and'/'or')");
                } else {
                    int k = i + 2;
                    while (k < n && Character.isWhitespace(drl.charAt(k))) k++;
                    if (k < n && startsWithOperator(drl, k)) {
                        out.add("line " + line + ": half-constraint after '" + op + "' is not DRL10 (repeat the field: x > 1 " + op + " x < 5)");
                    }
                }
                i++;
            } else if (c == '@') {
                out.add("line " + line + ": annotation on a pattern is not DRL10");
            }
        }
        return out;
    }
}
