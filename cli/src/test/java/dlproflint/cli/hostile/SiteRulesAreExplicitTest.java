package dlproflint.cli.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 7 item 5: rule packs are code, so they are loaded only when the user names them (built-in packs,
 * {@code --rules}, or the configuration of the repository being worked in), never because a profile's
 * folder carries a configuration or a pack. A downloaded profile folder with a {@code .dlprof-lint.yml}
 * that names a pack must not change what runs.
 */
@org.junit.jupiter.api.Tag("hostile")
@Timeout(120)
class SiteRulesAreExplicitTest {
    @TempDir
    Path dir;

    @Test
    void aConfigurationBesideTheProfileLoadsNoRules() throws IOException {
        Files.createDirectories(dir.resolve(".git")); // the user's repository: configuration discovery stops here
        Path downloads = Files.createDirectories(dir.resolve("downloads"));
        copy("e2e/trace.json", downloads.resolve("trace.json"));
        Path pack = Files.createDirectories(downloads.resolve("hostile-pack"));
        for (String f : List.of("pack.yaml", "kernel-named.drl", "kernel-named.md", "kernel-named.cases.yaml",
                "op-named.drl", "op-named.md", "op-named.cases.yaml", "gpu-named.drl", "gpu-named.md", "gpu-named.cases.yaml")) {
            copy("hostile/pack/" + f, pack.resolve(f));
        }
        Files.writeString(downloads.resolve(".dlprof-lint.yml"), "ruleDirs:\n  - hostile-pack\n");
        HostileCli cli = new HostileCli(dir);

        HostileCli.Result r = cli.run("downloads/trace.json", "--fail-on", "none", "--report", "json=plain.json");
        assertEquals(0, r.code(), r::toString);
        assertFalse(ruleIds(dir.resolve("plain.json")).stream().anyMatch(id -> id.startsWith("hostile/")),
                "a pack named by a configuration beside the profile must not run");

        // Control: the same pack runs when the user names it, so the check above could fail.
        r = cli.run("downloads/trace.json", "--rules", "downloads/hostile-pack", "--fail-on", "none", "--report", "json=named.json");
        assertEquals(0, r.code(), r::toString);
        assertTrue(ruleIds(dir.resolve("named.json")).contains("hostile/kernel-named"), r::toString);
    }

    private static List<String> ruleIds(Path report) throws IOException {
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        List<String> ids = new ArrayList<>();
        for (JsonNode p : json.path("profiles")) for (JsonNode f : p.path("findings")) ids.add(f.path("ruleId").asText());
        return ids;
    }

    private static void copy(String resource, Path to) throws IOException {
        try (InputStream in = SiteRulesAreExplicitTest.class.getClassLoader().getResourceAsStream(resource)) {
            Files.write(to, in.readAllBytes());
        }
    }
}
