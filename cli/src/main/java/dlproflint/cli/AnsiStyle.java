package dlproflint.cli;

import dlproflint.findings.Severity;
import dlproflint.reporters.text.TextStyle;
import picocli.CommandLine.Help.Ansi.IStyle;
import picocli.CommandLine.Help.Ansi.Style;

/**
 * The text report's terminal colours, written with picocli's own ANSI styles (the same escapes its
 * {@code @|bold,red text|@} markup gives: the styles on, the text, the styles off, a reset). The text is wrapped as
 * it is, never parsed as markup, so a profile's {@code @|} cannot restyle the screen.
 */
final class AnsiStyle implements TextStyle {
    static final TextStyle INSTANCE = new AnsiStyle();

    private AnsiStyle() {
    }

    /** {@link #INSTANCE} when colour is on (the caller resolved {@code --color}, {@code NO_COLOR}, the terminal), else plain. */
    static TextStyle of(boolean color) {
        return color ? INSTANCE : TextStyle.PLAIN;
    }

    @Override
    public String bold(String s) {
        return wrap(s, Style.bold);
    }

    @Override
    public String dim(String s) {
        return wrap(s, Style.faint);
    }

    @Override
    public String severity(Severity sev, String s) {
        if (sev == null) return s;
        return switch (sev) {
            case ERROR -> wrap(s, Style.bold, Style.fg_red);
            case WARNING -> wrap(s, Style.bold, Style.fg_yellow);
            case NOTE -> wrap(s, Style.bold, Style.fg_cyan);
        };
    }

    private static String wrap(String s, IStyle... styles) {
        IStyle[] reversed = new IStyle[styles.length];
        for (int i = 0; i < styles.length; i++) reversed[i] = styles[styles.length - 1 - i];
        return Style.on(styles) + s + Style.off(reversed) + Style.reset.on();
    }
}
