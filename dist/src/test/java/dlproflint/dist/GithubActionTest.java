package dlproflint.dist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dlproflint.reporters.markdown.MarkdownDoc;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code action.yml}: parsed as YAML and checked for what GitHub only reports at run time (an input nobody
 * reads, a script that is not there, a step output nobody writes, a bash syntax error); then its scripts run
 * for real: resolve the release, download it from this build's archive (file://), check its checksum, lint a
 * corpus profile and write the job summary and step outputs.
 */
class GithubActionTest {
    static final Pattern SCRIPT = Pattern.compile("\"\\$GITHUB_ACTION_PATH/([^\"]+)\"");
    static final Pattern STEP_OUTPUT = Pattern.compile("steps\\.([a-z-]+)\\.outputs\\.([a-z-]+)");
    static final Set<String> ACTIONS = Set.of("actions/cache@v4", "actions/setup-java@v4",
            "github/codeql-action/upload-sarif@v3", "actions/upload-artifact@v4");
    static JsonNode action;
    static String runsText;

    @BeforeAll
    static void parse() throws IOException {
        action = new ObjectMapper(new YAMLFactory()).readTree(Dist.REPO.resolve("action.yml").toFile());
        runsText = new ObjectMapper().writeValueAsString(action.path("runs")) + new ObjectMapper().writeValueAsString(action.path("outputs"));
    }

    @Test
    void isACompositeActionWhoseInputsAreAllUsed() {
        assertEquals("composite", action.path("runs").path("using").asText());
        assertTrue(action.path("description").asText().length() > 20);
        for (String required : List.of("profiles", "fail-on", "config", "baseline", "compare-against", "sarif", "html")) {
            assertTrue(action.path("inputs").has(required), "input " + required);
        }
        action.path("inputs").fields().forEachRemaining(e -> {
            assertFalse(e.getValue().path("description").asText().isBlank(), e.getKey() + " is described");
            assertTrue(runsText.contains("inputs." + e.getKey()), "input " + e.getKey() + " is used by a step");
        });
        assertEquals("true", action.path("inputs").path("profiles").path("required").asText());
    }

    @Test
    void stepsUseKnownActionsAndExistingValidScripts() throws Exception {
        Map<String, String> writtenOutputs = new LinkedHashMap<>();
        List<String> ids = new ArrayList<>();
        for (JsonNode step : action.path("runs").path("steps")) {
            String text = new ObjectMapper().writeValueAsString(step);
            // a step may only read outputs of steps before it, and only outputs they write
            Matcher m = STEP_OUTPUT.matcher(text);
            while (m.find()) {
                assertTrue(ids.contains(m.group(1)), "step " + m.group(1) + " runs before: " + text);
                String writer = writtenOutputs.get(m.group(1));
                if (writer != null) assertTrue(writer.contains(m.group(2) + "="), m.group(1) + " writes " + m.group(2));
            }
            if (step.has("uses")) {
                assertTrue(ACTIONS.contains(step.path("uses").asText()), "a known action at a major version: " + step.path("uses"));
            } else {
                assertEquals("bash", step.path("shell").asText(), "run steps use bash: " + text);
                String run = step.path("run").asText();
                Matcher script = SCRIPT.matcher(run);
                String body = run;
                if (script.find()) {
                    Path file = Dist.REPO.resolve(script.group(1));
                    assertTrue(Files.isRegularFile(file), "script exists: " + file);
                    assertTrue(Files.isExecutable(file), "script is executable: " + file);
                    body = Files.readString(file);
                    assertTrue(body.startsWith("#!/usr/bin/env bash\n"), file + " is a bash script");
                    bashSyntax(file);
                } else {
                    bashSyntax(Files.writeString(Files.createDirectories(Dist.WORK).resolve("inline.sh"),
                            run.replaceAll("\\$\\{\\{[^}]*}}", "x")));
                }
                if (step.has("id")) writtenOutputs.put(step.path("id").asText(), body);
            }
            if (step.has("id")) ids.add(step.path("id").asText());
        }
        Matcher out = STEP_OUTPUT.matcher(new ObjectMapper().writeValueAsString(action.path("outputs")));
        while (out.find()) assertTrue(writtenOutputs.get(out.group(1)).contains(out.group(2) + "="), out.group());
    }

    private static void bashSyntax(Path script) throws Exception {
        Dist.Result r = Dist.run(Dist.REPO, Map.of("PATH", "/usr/bin:/bin"), "bash", "-n", script.toString());
        assertEquals(0, r.code(), script + ": " + r);
    }

    static Map<String, String> outputs(Path file) throws IOException {
        Map<String, String> out = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            int eq = line.indexOf('=');
            if (eq > 0) out.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return out;
    }

    @Test
    void resolvesTheReleaseFromTheActionsTag() throws Exception {
        Path dir = ReleaseArchiveTest.freshDir("action-resolve");
        Path resolve = Dist.REPO.resolve("ci/github/resolve-release.sh");
        Map<String, String> env = new HashMap<>(Map.of("PATH", "/usr/bin:/bin", "GITHUB_OUTPUT", dir.resolve("o1").toString(),
                "ACTION_REF", "v1.2.3", "RUNNER_OS_NAME", "Linux", "RUNNER_ARCH_NAME", "X64", "RUNNER_TOOL_CACHE", "/opt/hostedtoolcache"));
        assertEquals(0, Dist.run(dir, env, resolve.toString()).code());
        Map<String, String> o = outputs(dir.resolve("o1"));
        assertEquals("1.2.3", o.get("version"));
        assertEquals("https://github.com/dlprof-lint/dlprof-lint/releases/download/v1.2.3/dlprof-lint-1.2.3-linux-x64.tar.gz", o.get("url"));
        assertEquals("false", o.get("needs-java"), "the Linux x64 archive brings its runtime");
        assertEquals("/opt/hostedtoolcache/dlprof-lint/1.2.3/dlprof-lint-1.2.3-linux-x64", o.get("install-dir"));
        assertEquals("dlprof-lint-1.2.3-dlprof-lint-1.2.3-linux-x64", o.get("cache-key"), "keyed by version and platform");

        env.putAll(Map.of("GITHUB_OUTPUT", dir.resolve("o2").toString(), "RUNNER_OS_NAME", "macOS", "RUNNER_ARCH_NAME", "ARM64"));
        assertEquals(0, Dist.run(dir, env, resolve.toString()).code());
        assertEquals("true", outputs(dir.resolve("o2")).get("needs-java"));
        assertTrue(outputs(dir.resolve("o2")).get("url").endsWith("/dlprof-lint-1.2.3.tar.gz"));

        env.putAll(Map.of("GITHUB_OUTPUT", dir.resolve("o3").toString(), "ACTION_REF", "main"));
        Dist.Result branch = Dist.run(dir, env, resolve.toString());
        assertEquals(2, branch.code());
        assertTrue(branch.out().startsWith("::error title=dlprof-lint::set the action's 'version' input"), branch::toString);
        env.put("INPUT_VERSION", "v0.1.0");
        assertEquals(0, Dist.run(dir, env, resolve.toString()).code(), "an explicit version works on any ref");
    }

    @Test
    void downloadsChecksLintsAndSummarises() throws Exception {
        Path dir = ReleaseArchiveTest.freshDir("action-run");
        String releases = Dist.releasesIn(dir);
        Map<String, String> env = new HashMap<>();
        env.put("PATH", Dist.toolsPath("action", true) + ":/usr/bin:/bin");
        env.put("HOME", Files.createDirectories(dir.resolve("home")).toString());
        env.put("RUNNER_TEMP", Files.createDirectories(dir.resolve("runner-temp")).toString());
        env.put("RUNNER_TOOL_CACHE", dir.resolve("tool-cache").toString());
        env.put("GITHUB_OUTPUT", dir.resolve("resolve.out").toString());
        env.put("INPUT_VERSION", Dist.VERSION);
        env.put("RUNNER_OS_NAME", "macOS"); // the plain archive: -Prelease is not part of this build
        env.put("RUNNER_ARCH_NAME", "X64");
        env.put("DLPROF_LINT_RELEASE_BASE", releases);
        assertEquals(0, Dist.run(dir, env, Dist.REPO.resolve("ci/github/resolve-release.sh").toString()).code());
        Map<String, String> resolved = outputs(dir.resolve("resolve.out"));

        env.put("DLPROF_LINT_ARCHIVE_URL", resolved.get("url"));
        env.put("DLPROF_LINT_INSTALL_DIR", resolved.get("install-dir"));
        Dist.Result install = Dist.run(dir, env, Dist.REPO.resolve("ci/github/install-release.sh").toString());
        assertEquals(0, install.code(), install::toString);
        assertTrue(install.out().startsWith("dlprof-lint " + Dist.VERSION), install::toString);

        Path workspace = Files.createDirectories(dir.resolve("workspace"));
        Files.writeString(workspace.resolve("train.py"), "pass\n");
        Path profiles = Files.createDirectories(workspace.resolve("profiles"));
        Files.copy(Corpus.file(ReleaseArchiveTest.PROFILE), profiles.resolve("rank0.sqlite"));
        Files.copy(Corpus.file(ReleaseArchiveTest.PROFILE), profiles.resolve("rank1.sqlite"));
        env.put("DLPROF_LINT", resolved.get("install-dir") + "/bin/dlprof-lint");
        env.put("GITHUB_OUTPUT", dir.resolve("lint.out").toString());
        env.put("GITHUB_STEP_SUMMARY", dir.resolve("summary.md").toString());
        env.putAll(Map.of("INPUT_PROFILES", "profiles/*.sqlite", "INPUT_FAIL_ON", "warning", "INPUT_CONFIG", "",
                "INPUT_BASELINE", "", "INPUT_COMPARE_AGAINST", "", "INPUT_SARIF", "dlprof-lint.sarif",
                "INPUT_HTML", "dlprof-lint.html", "INPUT_SUMMARY", "true", "INPUT_ARGS", "--no-config --sarif-anchor train.py"));
        Dist.Result lint = Dist.run(workspace, env, Dist.REPO.resolve("ci/github/lint.sh").toString());
        assertEquals(0, lint.code(), "the step itself succeeds, so that the uploads run: " + lint);
        Map<String, String> out = outputs(dir.resolve("lint.out"));
        assertEquals("1", out.get("exit-code"), "findings at or above warning: " + lint);
        assertEquals("true", out.get("sarif-written"));
        assertEquals("true", out.get("html-written"));
        JsonNode sarif = new ObjectMapper().readTree(workspace.resolve("dlprof-lint.sarif").toFile());
        assertEquals(2, sarif.path("runs").size(), "the glob found both profiles");
        String summary = Files.readString(dir.resolve("summary.md"));
        assertTrue(summary.startsWith("## dlprof-lint: "), summary);
        assertEquals(2, summary.lines().filter(l -> l.startsWith("### ")).count(), "one section per profile");
        assertTrue(MarkdownDoc.parse(summary).tables().size() >= 4, "metrics and findings tables per profile");
        assertTrue(lint.out().contains("dlprof-lint " + Dist.VERSION), "the text report is in the job log");

        // compare-against: the compare command, or a clear error from a release without it
        env.put("GITHUB_OUTPUT", dir.resolve("compare.out").toString());
        env.put("INPUT_COMPARE_AGAINST", "profiles/rank0.sqlite");
        env.put("INPUT_FAIL_ON", "none");
        Dist.Result compare = Dist.run(workspace, env, Dist.REPO.resolve("ci/github/lint.sh").toString());
        boolean hasCompare = Dist.run(workspace, env, env.get("DLPROF_LINT"), "help", "compare").code() == 0;
        if (hasCompare) {
            assertTrue(Files.readString(dir.resolve("summary.md")).contains("### Compared with profiles/rank0.sqlite"));
        } else {
            assertTrue(compare.out().contains("::error title=dlprof-lint::compare-against needs the 'compare' command"), compare::toString);
            assertEquals("2", outputs(dir.resolve("compare.out")).get("exit-code"));
        }
    }

    @Test
    void aTamperedArchiveIsRefused() throws Exception {
        Path dir = ReleaseArchiveTest.freshDir("action-tampered");
        Dist.releasesIn(dir);
        Path archive = dir.resolve("releases").resolve(Dist.archive(".tar.gz").getFileName());
        Files.writeString(Path.of(archive + ".sha256"), "0".repeat(64) + "  " + archive.getFileName() + "\n");
        Map<String, String> env = Map.of("PATH", "/usr/bin:/bin", "DLPROF_LINT_ARCHIVE_URL", archive.toUri().toString(),
                "DLPROF_LINT_INSTALL_DIR", dir.resolve("install").toString());
        Dist.Result r = Dist.run(dir, env, Dist.REPO.resolve("ci/github/install-release.sh").toString());
        assertEquals(1, r.code(), r::toString);
        assertTrue(r.out().contains("does not match its published SHA-256 checksum"), r::toString);
        assertFalse(Files.exists(dir.resolve("install/bin/dlprof-lint")), "nothing installed");
    }
}
