package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A small repository for end-to-end runs: a {@code .git} folder, a PyTorch profiler trace (written for
 * these tests, read by the real Kineto reader) and a site rule pack ({@code site/kernel-seen}: a
 * warning per kernel; {@code site/profile-seen}: an error per profile with kernels).
 */
final class E2eFixture {
    static final String[] PACK_FILES = {"pack.yaml", "kernel-seen.drl", "kernel-seen.md", "kernel-seen.cases.yaml",
            "profile-seen.drl", "profile-seen.md", "profile-seen.cases.yaml"};
    static final ObjectMapper JSON = new ObjectMapper();

    final Path repo;

    E2eFixture(Path repo) throws IOException {
        this.repo = repo;
        Files.createDirectories(repo.resolve(".git"));
        copy("e2e/trace.json", repo.resolve("trace.json"));
        Files.createDirectories(repo.resolve("site-pack"));
        for (String f : PACK_FILES) copy("e2e/site-pack/" + f, repo.resolve("site-pack").resolve(f));
        // Only the site pack runs, so the tests' expectations do not move with the built-in pack.
        Files.writeString(repo.resolve(".dlprof-lint.yml"), CONFIG);
    }

    /** The fixture's configuration (every built-in pack off); tests that write their own append to it. */
    static final String CONFIG = builtinPacksOff();

    private static String builtinPacksOff() {
        StringBuilder sb = new StringBuilder("packs:\n");
        try {
            for (dlproflint.findings.PackInfo p : dlproflint.engine.LintEngine.load(dlproflint.engine.EngineOptions.builtinOnly()
                    .withCacheDir(dlproflint.engine.EngineOptions.defaultCacheDir())).packs()) {
                sb.append("  ").append(p.id()).append(": false\n");
            }
        } catch (dlproflint.engine.RuleLoadException e) {
            throw new IllegalStateException("built-in packs do not load: " + e.getMessage(), e);
        }
        return sb.toString().equals("packs:\n") ? "packs: {}\n" : sb.toString();
    }

    static void copy(String resource, Path to) throws IOException {
        try (InputStream in = E2eFixture.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) throw new IOException("missing test resource " + resource);
            Files.createDirectories(to.toAbsolutePath().getParent());
            Files.write(to, in.readAllBytes());
        }
    }

    /** The trace with one more kernel (a "new" finding for baseline tests). */
    Path traceWithExtraKernel(String name) throws IOException {
        String t = Files.readString(repo.resolve("trace.json"));
        String extra = "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + name + "\", \"pid\": 0, \"tid\": 7, "
                + "\"ts\": 1600, \"dur\": 30, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 12, \"External id\": 2}},\n";
        String changed = t.replace("  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"volta", extra + "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"volta");
        return Files.writeString(repo.resolve("trace2.json"), changed);
    }

    CliHarness cli() {
        return new CliHarness(repo).env("DLPROF_LINT_TEST", "1");
    }

    static JsonNode json(Path file) throws IOException {
        return JSON.readTree(file.toFile());
    }

    /** Severities of every reported finding in a JSON report, in order. */
    static List<String> severities(JsonNode report) {
        List<String> out = new ArrayList<>();
        for (JsonNode p : report.path("profiles")) {
            for (JsonNode f : p.path("findings")) out.add(f.path("severity").asText());
        }
        return out;
    }

    static List<String> subjects(JsonNode report) {
        List<String> out = new ArrayList<>();
        for (JsonNode p : report.path("profiles")) {
            for (JsonNode f : p.path("findings")) out.add(f.path("ruleId").asText() + " " + f.path("subject").path("ref").asText());
        }
        return out;
    }
}
