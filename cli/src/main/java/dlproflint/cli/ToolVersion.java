package dlproflint.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The tool's version and the git commit it was built from, filtered into {@code version.properties} by the
 * build. A build outside a git checkout has no commit; it says {@code unknown} rather than guessing.
 */
public final class ToolVersion {
    private static final Properties BUILD = load();
    private static final String VERSION = value("version");

    private ToolVersion() {
    }

    public static String get() {
        return VERSION;
    }

    /** Abbreviated commit id, with {@code -dirty} when the working tree had uncommitted changes; or {@code unknown}. */
    public static String commit() {
        String commit = value("commit");
        return !"unknown".equals(commit) && "true".equals(value("dirty")) ? commit + "-dirty" : commit;
    }

    private static String value(String key) {
        String v = BUILD.getProperty(key, "").strip();
        return v.isEmpty() || v.startsWith("${") ? "unknown" : v;
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = ToolVersion.class.getResourceAsStream("version.properties")) {
            if (in != null) p.load(in);
        } catch (IOException e) {
            // an unreadable resource is a broken jar; the version then reads "unknown"
        }
        return p;
    }
}
