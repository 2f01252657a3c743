package dlproflint.dist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dlproflint.reporters.Schemas;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GitLab CI template: its job wires the Code Quality report it writes into {@code artifacts:reports:codequality},
 * every variable its script reads is defined, the script is valid POSIX sh; and run for real (download from this
 * build's archive, lint a corpus profile) it writes a Code Quality report that GitLab's documented format accepts.
 */
class GitlabTemplateTest {
    static final Path TEMPLATE = Dist.REPO.resolve("ci/gitlab/dlprof-lint.gitlab-ci.yml");
    static JsonNode job;
    static String script;

    @BeforeAll
    static void parse() throws IOException {
        job = new ObjectMapper(new YAMLFactory()).readTree(TEMPLATE.toFile()).path(".dlprof-lint");
        List<String> lines = new ArrayList<>();
        job.path("script").forEach(s -> lines.add(s.asText()));
        script = String.join("\n", lines);
    }

    @Test
    void publishesTheCodeQualityReportItWrites() {
        String report = job.path("artifacts").path("reports").path("codequality").asText();
        assertEquals("gl-code-quality-report.json", report);
        assertTrue(script.contains("--report codequality=" + report), "the job writes the file it publishes");
        assertEquals("always", job.path("artifacts").path("when").asText(), "reports are kept when findings fail the job");
        Set<String> paths = new HashSet<>();
        job.path("artifacts").path("paths").forEach(p -> paths.add(p.asText()));
        for (Matcher m = Pattern.compile("--report \\w+=(\\S+)").matcher(script); m.find(); ) {
            assertTrue(paths.contains(m.group(1)), m.group(1) + " is kept as an artifact");
        }
        assertTrue(job.path("cache").path("key").asText().contains("${DLPROF_LINT_VERSION}"), "cached per version");
    }

    @Test
    void everyVariableTheScriptReadsIsDefined() {
        Set<String> defined = new HashSet<>();
        job.path("variables").fieldNames().forEachRemaining(defined::add);
        Matcher m = Pattern.compile("\\$\\{?(DLPROF_LINT_[A-Z_]+)").matcher(script + job.path("variables").toString());
        while (m.find()) assertTrue(defined.contains(m.group(1)), m.group(1) + " is defined by the template");
    }

    @Test
    void scriptIsPosixShell() throws Exception {
        Path file = Files.writeString(Files.createDirectories(Dist.WORK).resolve("gitlab-script.sh"), script);
        Dist.Result r = Dist.run(Dist.REPO, Map.of("PATH", "/usr/bin:/bin"), "sh", "-n", file.toString());
        assertEquals(0, r.code(), r::toString);
    }

    @Test
    void runsAndWritesACodeQualityReportInGitlabsFormat() throws Exception {
        Path dir = ReleaseArchiveTest.freshDir("gitlab-run");
        String releases = Dist.releasesIn(dir);
        Path project = Files.createDirectories(dir.resolve("project"));
        Files.createDirectories(project.resolve(".git")); // the checkout GitLab clones: its root is the repository
        Files.copy(Corpus.file(ReleaseArchiveTest.PROFILE), Files.createDirectories(project.resolve("profiles")).resolve("train.sqlite"));

        Map<String, String> env = new HashMap<>();
        job.path("variables").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
        env.put("CI_PROJECT_DIR", project.toString());
        env.put("DLPROF_LINT_VERSION", Dist.VERSION);
        env.put("DLPROF_LINT_PROFILES", "profiles/train.sqlite");
        env.put("DLPROF_LINT_FAIL_ON", "warning");
        env.put("DLPROF_LINT_ARGS", "--no-config");
        env.put("DLPROF_LINT_RELEASE_BASE", releases);
        env.put("DLPROF_LINT_HOME", expand(env.get("DLPROF_LINT_HOME"), env));
        env.put("PATH", Dist.toolsPath("gitlab", true) + ":/usr/bin:/bin");
        env.put("HOME", Files.createDirectories(dir.resolve("home")).toString());

        Dist.Result r = Dist.run(project, env, "sh", "-c", script);
        assertEquals(1, r.code(), "findings at or above warning fail the job: " + r);
        assertTrue(r.out().contains("dlprof-lint " + Dist.VERSION), "version printed after the download: " + r);
        JsonNode report = new ObjectMapper().readTree(project.resolve("gl-code-quality-report.json").toFile());
        assertEquals(Set.of(), Schemas.errors(Schemas.load("/codequality/gitlab-codequality.schema.json"), report));
        assertTrue(report.size() > 0, "the corpus profile has findings");
        Set<String> fingerprints = new HashSet<>();
        for (JsonNode issue : report) {
            assertTrue(fingerprints.add(issue.path("fingerprint").asText()), "unique fingerprints");
            assertEquals("profiles/train.sqlite", issue.path("location").path("path").asText(), "repository-relative");
        }
        assertTrue(Files.exists(project.resolve("dlprof-lint.html")));
        assertTrue(Files.isExecutable(project.resolve(".dlprof-lint/" + Dist.VERSION + "/bin/dlprof-lint")), "cached folder");
    }

    /** GitLab's expansion of ${VAR} in a variable's value. */
    private static String expand(String value, Map<String, String> env) {
        Matcher m = Pattern.compile("\\$\\{([A-Z_]+)}").matcher(value);
        StringBuilder b = new StringBuilder();
        while (m.find()) m.appendReplacement(b, Matcher.quoteReplacement(env.getOrDefault(m.group(1), "")));
        return m.appendTail(b).toString();
    }
}
