package dlproflint.reporters.text;

import dlproflint.findings.Severity;

/**
 * How the text report styles its words on a terminal. The reporters read no environment and know no terminal
 * library: the caller passes a style ({@link #PLAIN}, or the cli's, which writes picocli's ANSI escapes). A style
 * only wraps the text it is given; the text is already made safe for a terminal ({@link TerminalText}).
 */
public interface TextStyle {
    /** No escapes at all: the text as given. */
    TextStyle PLAIN = new TextStyle() {
        @Override
        public String bold(String s) {
            return s;
        }

        @Override
        public String dim(String s) {
            return s;
        }

        @Override
        public String severity(Severity sev, String s) {
            return s;
        }
    };

    String bold(String s);

    String dim(String s);

    /** A severity's label or count: errors red, warnings yellow, notes cyan (bold); unstyled without a severity. */
    String severity(Severity sev, String s);
}
