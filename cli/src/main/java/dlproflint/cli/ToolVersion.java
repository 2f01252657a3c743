package dlproflint.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The tool's version, filtered into {@code version.properties} by the build. */
public final class ToolVersion {
    private static final String VERSION = load();

    private ToolVersion() {
    }

    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = ToolVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) return "unknown";
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }
}
