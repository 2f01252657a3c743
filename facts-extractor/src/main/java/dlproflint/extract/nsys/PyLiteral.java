package dlproflint.extract.nsys;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parser for the Python literals DLProf's PyTorch plugin writes as NVTX text ({@code str(dict)}): dicts,
 * lists, tuples, quoted strings, numbers, True/False/None. Also accepts JSON. Returns Map/List/String/
 * Long/Double/Boolean/null; throws {@link IllegalArgumentException} on anything else.
 */
final class PyLiteral {
    private static final int MAX_DEPTH = 200;
    private final String s;
    private int i;
    private int depth;

    private PyLiteral(String s) {
        this.s = s;
    }

    static Object parse(String text) {
        PyLiteral p = new PyLiteral(text);
        Object v = p.value();
        p.ws();
        if (p.i != p.s.length()) throw new IllegalArgumentException("trailing text at " + p.i);
        return v;
    }

    private void ws() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    }

    private Object value() {
        ws();
        if (i >= s.length()) throw new IllegalArgumentException("unexpected end");
        char c = s.charAt(i);
        if (c == '{' || c == '[' || c == '(') {
            // hostile markers nest deeper than any real one: stop before the stack does
            if (++depth > MAX_DEPTH) throw new IllegalArgumentException("nested deeper than " + MAX_DEPTH + " levels");
            try {
                return c == '{' ? dict() : c == '[' ? seq('[', ']') : seq('(', ')');
            } finally {
                depth--;
            }
        }
        switch (c) {
            case '\'':
            case '"':
                return str(c);
            default:
                return atom();
        }
    }

    private Map<String, Object> dict() {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        ws();
        if (peek('}')) {
            i++;
            return m;
        }
        while (true) {
            Object k = value();
            ws();
            expect(':');
            Object v = value();
            m.put(String.valueOf(k), v);
            ws();
            if (peek(',')) {
                i++;
                ws();
                if (peek('}')) {
                    i++;
                    return m;
                }
                continue;
            }
            expect('}');
            return m;
        }
    }

    private List<Object> seq(char open, char close) {
        List<Object> l = new ArrayList<>();
        i++;
        ws();
        if (peek(close)) {
            i++;
            return l;
        }
        while (true) {
            l.add(value());
            ws();
            if (peek(',')) {
                i++;
                ws();
                if (peek(close)) {
                    i++;
                    return l;
                }
                continue;
            }
            expect(close);
            return l;
        }
    }

    private String str(char q) {
        StringBuilder b = new StringBuilder();
        i++;
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == q) return b.toString();
            if (c == '\\' && i < s.length()) {
                char n = s.charAt(i++);
                switch (n) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'u' -> {
                        if (i + 4 <= s.length()) {
                            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                            i += 4;
                        }
                    }
                    default -> b.append(n);
                }
            } else {
                b.append(c);
            }
        }
        throw new IllegalArgumentException("unterminated string");
    }

    private Object atom() {
        int st = i;
        while (i < s.length() && ",:]})".indexOf(s.charAt(i)) < 0 && !Character.isWhitespace(s.charAt(i))) i++;
        String a = s.substring(st, i);
        switch (a) {
            case "True", "true":
                return Boolean.TRUE;
            case "False", "false":
                return Boolean.FALSE;
            case "None", "null":
                return null;
            default:
                break;
        }
        try {
            return Long.parseLong(a);
        } catch (NumberFormatException e) {
            try {
                return Double.parseDouble(a);
            } catch (NumberFormatException e2) {
                // bare words (e.g. torch.float32 or <object at 0x..>) are kept as text
                if (a.isEmpty()) throw new IllegalArgumentException("unexpected '" + s.charAt(i) + "' at " + i);
                return a;
            }
        }
    }

    private boolean peek(char c) {
        return i < s.length() && s.charAt(i) == c;
    }

    private void expect(char c) {
        if (!peek(c)) throw new IllegalArgumentException("expected '" + c + "' at " + i);
        i++;
    }
}
