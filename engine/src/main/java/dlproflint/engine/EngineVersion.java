package dlproflint.engine;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Engine and Drools versions, from the Maven-filtered {@code dlproflint/engine/engine.properties}. */
public final class EngineVersion {
    private static final Properties P = new Properties();

    static {
        try (InputStream in = EngineVersion.class.getResourceAsStream("/dlproflint/engine/engine.properties")) {
            if (in != null) P.load(in);
        } catch (IOException ignored) {
            // falls back to "dev" below
        }
    }

    private EngineVersion() {
    }

    /** The engine's version, compared with a pack's {@code minEngine}. */
    public static String engine() {
        String v = P.getProperty("version", "0.0.0");
        return v.startsWith("${") ? "0.0.0" : v;
    }

    public static String drools() {
        return P.getProperty("drools", "unknown");
    }

    /** Salt of the compiled-pack cache key: anything that changes the generated classes. */
    public static String cacheSalt() {
        return "dlprof-lint-engine/" + engine() + " drools/" + drools() + " java/" + Runtime.version().feature()
                + " cache-format/2";
    }
}
