package dlproflint.cli;

import dlproflint.engine.pack.PackLoader;
import dlproflint.engine.pack.PackManifest;
import dlproflint.findings.OneLine;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code dlprof-lint --version} prints: the tool version and the commit it was built from, the
 * built-in packs' versions as their manifests declare them (read, not compiled: the rule engine stays
 * unloaded), and the Java runtime.
 */
final class VersionInfo {
    private VersionInfo() {
    }

    static String[] lines() {
        List<String> lines = new ArrayList<>();
        lines.add("dlprof-lint " + ToolVersion.get());
        lines.add("commit " + ToolVersion.commit());
        try {
            for (PackManifest p : PackLoader.builtinManifests(VersionInfo.class.getClassLoader())) {
                lines.add("pack " + p.id() + " " + p.version());
            }
        } catch (Exception | LinkageError e) {
            lines.add("packs: unavailable (" + OneLine.of(e) + ")");
        }
        lines.add("Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")");
        return lines.toArray(String[]::new);
    }
}
