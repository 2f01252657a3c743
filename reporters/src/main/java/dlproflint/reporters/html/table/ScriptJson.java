package dlproflint.reporters.html.table;

/**
 * Compact JSON for a {@code <script type="application/json">} data block. The HTML parser ends a script
 * element at the first {@code </script}, and {@code <!--} can switch it into an escaped state, whatever the
 * JSON means; so, besides JSON's own escapes, every {@code <}, {@code >} and {@code &} in a string is
 * written as a {@code \\u} escape and can never form markup. U+2028 and U+2029 (line terminators in older
 * JavaScript), other control characters and lone surrogates are escaped too. The result is plain ASCII
 * punctuation around the strings' other characters, and {@code JSON.parse} returns the original strings.
 */
public final class ScriptJson {
    private final StringBuilder out;

    public ScriptJson(StringBuilder out) {
        this.out = out;
    }

    public ScriptJson raw(char c) {
        out.append(c);
        return this;
    }

    /** A string, a number, a boolean (as 1 or 0, to stay compact), null, or an {@code int[]}/{@code long[]}. */
    public ScriptJson value(Object v) {
        if (v == null) out.append("null");
        else if (v instanceof String s) string(s);
        else if (v instanceof Boolean b) out.append(b ? '1' : '0');
        else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) out.append(v);
        else if (v instanceof Number n) number(n.doubleValue());
        else if (v instanceof int[] a) {
            out.append('[');
            for (int i = 0; i < a.length; i++) {
                if (i > 0) out.append(',');
                out.append(a[i]);
            }
            out.append(']');
        } else string(String.valueOf(v));
        return this;
    }

    /** A finite number: integral values without a fraction, others with up to 3 decimals; NaN and infinities as null. */
    public ScriptJson number(double d) {
        if (!Double.isFinite(d)) out.append("null");
        else if (d == Math.rint(d) && Math.abs(d) < 1e15) out.append((long) d);
        else if (Math.abs(d) >= 1e15) out.append(d);
        else out.append(Math.round(d * 1000) / 1000.0);
        return this;
    }

    public ScriptJson string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                default -> {
                    boolean pairedSurrogate = Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1));
                    if (pairedSurrogate) {
                        out.append(c).append(s.charAt(++i));
                    } else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x7F || c == '\u2028'
                            || c == '\u2029' || Character.isSurrogate(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
