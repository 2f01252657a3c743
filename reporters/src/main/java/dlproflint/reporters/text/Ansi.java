package dlproflint.reporters.text;

import dlproflint.findings.Severity;

/** SGR escapes, or nothing when colour is off; the caller decides, this class reads no environment. */
final class Ansi {
    private static final String RESET = "\u001b[0m";
    private final boolean on;

    Ansi(boolean on) {
        this.on = on;
    }

    String bold(String s) {
        return wrap("1", s);
    }

    String dim(String s) {
        return wrap("2", s);
    }

    String severity(Severity sev, String s) {
        if (sev == null) return s;
        return switch (sev) {
            case ERROR -> wrap("1;31", s);
            case WARNING -> wrap("1;33", s);
            case NOTE -> wrap("1;36", s);
        };
    }

    private String wrap(String code, String s) {
        return on ? "\u001b[" + code + "m" + s + RESET : s;
    }
}
