package dlproflint.reporters.dlprof;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** File formats of DLProf reports ({@code --formats csv,json}). */
public enum DlprofFormat {
    CSV("csv"),
    JSON("json");

    private final String extension;

    DlprofFormat(String extension) {
        this.extension = extension;
    }

    public String extension() {
        return extension;
    }

    /**
     * Parses a comma-separated list such as {@code csv,json} (case-insensitive).
     *
     * @throws IllegalArgumentException naming the unknown format
     */
    public static Set<DlprofFormat> parse(String list) {
        Set<DlprofFormat> formats = EnumSet.noneOf(DlprofFormat.class);
        if (list != null) {
            for (String raw : list.split(",")) {
                String name = raw.trim().toLowerCase(Locale.ROOT);
                if (name.isEmpty()) continue;
                DlprofFormat f = null;
                for (DlprofFormat c : values()) if (c.extension.equals(name)) f = c;
                if (f == null) throw new IllegalArgumentException("unknown report format '" + raw.trim() + "'; known formats: csv, json");
                formats.add(f);
            }
        }
        if (formats.isEmpty()) throw new IllegalArgumentException("no report format given; known formats: csv, json");
        return formats;
    }
}
