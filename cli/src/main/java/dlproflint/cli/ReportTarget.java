package dlproflint.cli;

import picocli.CommandLine;

import java.util.Locale;

/**
 * One {@code --report FORMAT[=PATH]}: a format and where it goes ({@code path == null} = stdout,
 * written as no path or {@code -}).
 */
public record ReportTarget(String format, String path) {

    public boolean toStdout() {
        return path == null;
    }

    /** picocli converter; an unknown format is a usage error (exit 2). */
    public static final class Converter implements CommandLine.ITypeConverter<ReportTarget> {
        @Override
        public ReportTarget convert(String value) {
            int eq = value.indexOf('=');
            String format = (eq < 0 ? value : value.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
            String path = eq < 0 ? null : value.substring(eq + 1).trim();
            if (!ReportFormats.names().contains(format)) {
                throw new CommandLine.TypeConversionException("unknown report format '" + format + "' (expected one of "
                        + String.join(", ", ReportFormats.names()) + ")");
            }
            if (path != null && (path.isEmpty() || path.equals("-"))) path = null;
            return new ReportTarget(format, path);
        }
    }
}
