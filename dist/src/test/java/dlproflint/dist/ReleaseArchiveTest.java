package dlproflint.dist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.testing.Corpus;
import dlproflint.testing.DirectorySnapshot;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The release archive as a user gets it: unpacked with tar on a machine that has Java 17 and nothing else
 * of ours (no checkout, no Maven), run from another folder, through a symbolic link, and without Java.
 */
class ReleaseArchiveTest {
    static final String PROFILE = "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite";
    static Path home;
    static Path launcher;

    @BeforeAll
    static void unpack() throws Exception {
        home = Dist.unpacked(Dist.archive(".tar.gz"));
        launcher = home.resolve("bin/dlprof-lint");
    }

    /** Only Java on PATH, a fresh HOME (so the pack cache starts empty), nothing else. */
    static Map<String, String> onlyJava(Path cwd) throws IOException {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", Dist.toolsPath("only-java", true).toString());
        env.put("HOME", Files.createDirectories(cwd.resolve("home")).toString());
        return env;
    }

    static Path freshDir(String name) throws IOException {
        Path d = Dist.WORK.resolve(name);
        Dist.deleteTree(d);
        return Files.createDirectories(d);
    }

    @Test
    void holdsTheJarLaunchersCompletionRuleDocsAndLicences() throws Exception {
        assertTrue(Files.isRegularFile(home.resolve("lib/dlprof-lint.jar")));
        assertTrue(Files.isExecutable(launcher), "bin/dlprof-lint is executable");
        assertTrue(Files.isRegularFile(home.resolve("bin/dlprof-lint.cmd")));
        assertTrue(Files.isRegularFile(home.resolve("completion/dlprof-lint.bash")));
        assertEquals(Files.readString(Dist.REPO.resolve("README.md")), Files.readString(home.resolve("README.md")));
        for (String f : List.of("NOTICE", "THIRD-PARTY.txt", "licenses/Apache-2.0.txt")) {
            assertTrue(Files.size(home.resolve(f)) > 0, f);
        }
        try (Stream<Path> own = Files.list(Dist.REPO)) {
            for (Path licence : own.filter(p -> p.getFileName().toString().startsWith("LICENSE")).toList()) {
                assertEquals(Files.readString(licence), Files.readString(home.resolve(licence.getFileName().toString())),
                        "the project's own licence is shipped");
            }
        }
        assertEquals(DirectorySnapshot.of(Dist.REPO.resolve("docs/rules")), DirectorySnapshot.of(home.resolve("docs/rules")),
                "the rule reference, exactly as in the repository");
        String cmd = Files.readString(home.resolve("bin/dlprof-lint.cmd"));
        assertTrue(cmd.contains("\r\n"), "the Windows launcher has CRLF line ends");
        assertTrue(cmd.contains("\\lib\\dlprof-lint.jar") && cmd.contains("%*"), "it runs the jar with every argument");
    }

    @Test
    void zipHoldsTheSameFilesAsTheTarball() throws Exception {
        Set<String> fromTar = new TreeSet<>();
        try (Stream<Path> walk = Files.walk(home)) {
            walk.filter(Files::isRegularFile).forEach(p -> fromTar.add(home.relativize(p).toString()));
        }
        Set<String> fromZip = new TreeSet<>();
        String top = "dlprof-lint-" + Dist.VERSION + "/";
        try (ZipFile zip = new ZipFile(Dist.archive(".zip").toFile())) {
            for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                ZipEntry entry = e.nextElement();
                assertTrue(entry.getName().startsWith(top), "one top folder: " + entry.getName());
                if (!entry.isDirectory()) fromZip.add(entry.getName().substring(top.length()));
            }
        }
        assertEquals(fromTar, fromZip);
    }

    @Test
    void checksumsMatchTheArchives() throws Exception {
        for (String suffix : List.of(".tar.gz", ".zip")) {
            Path archive = Dist.archive(suffix);
            String line = Files.readString(Path.of(archive + ".sha256")).strip();
            assertEquals(DirectorySnapshot.sha256(archive) + "  " + archive.getFileName(), line, "sha256sum format");
        }
    }

    @Test
    void lintsACorpusProfileWithOnlyJavaAndDocumentedExitCodes() throws Exception {
        Path cwd = freshDir("lint-only-java");
        Map<String, String> env = onlyJava(cwd);
        String profile = Corpus.file(PROFILE).toString();

        Dist.Result findings = Dist.run(cwd, env, launcher.toString(), profile, "--no-config", "--fail-on", "warning",
                "--report", "json=out.json");
        assertEquals(1, findings.code(), "findings at or above --fail-on: " + findings);
        JsonNode report = new ObjectMapper().readTree(cwd.resolve("out.json").toFile());
        assertTrue(report.path("profiles").get(0).path("findings").size() > 0, "findings in the JSON report");
        assertEquals(Dist.VERSION, report.path("tool").path("version").asText());

        assertEquals(0, Dist.run(cwd, env, launcher.toString(), profile, "--no-config", "--fail-on", "none").code());
        Dist.Result missing = Dist.run(cwd, env, launcher.toString(), "no-such.sqlite");
        assertEquals(3, missing.code(), missing::toString);
        assertEquals("dlprof-lint: no-such.sqlite: no such file", missing.err().strip());
        Dist.Result usage = Dist.run(cwd, env, launcher.toString(), profile, "--no-such-option");
        assertEquals(2, usage.code(), usage::toString);
    }

    @Test
    void runsThroughASymbolicLinkFromAnotherFolder() throws Exception {
        Path cwd = freshDir("symlink");
        Path bin = Files.createDirectories(cwd.resolve("usr-local-bin"));
        Files.createSymbolicLink(bin.resolve("dlprof-lint"), launcher);
        Dist.Result r = Dist.run(cwd, onlyJava(cwd), bin.resolve("dlprof-lint").toString(), "rules", "list");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("dlprof/amp-not-used"), r::toString);
    }

    @Test
    void withoutJavaOneLineSaysWhatIsMissing() throws Exception {
        Path cwd = freshDir("no-java");
        Dist.Result r = Dist.run(cwd, Map.of("PATH", Dist.toolsPath("no-java", false).toString()), launcher.toString(), "--version");
        assertEquals(2, r.code(), r::toString);
        assertEquals("dlprof-lint: no Java runtime found: install Java 17 or newer (on PATH or in JAVA_HOME),"
                + " or use the release archive that bundles one", r.err().strip());
    }

    @Test
    void versionNamesCommitAndPacksWithoutLoadingTheRuleEngine() throws Exception {
        Path cwd = freshDir("version");
        Map<String, String> env = onlyJava(cwd);
        Path classLog = cwd.resolve("classes.log");
        env.put("DLPROF_LINT_JAVA_OPTS", "-Xlog:class+load=info:file=" + classLog);
        Dist.Result r = Dist.run(cwd, env, launcher.toString(), "--version");
        assertEquals(0, r.code(), r::toString);
        List<String> lines = r.out().lines().toList();
        assertEquals("dlprof-lint " + Dist.VERSION, lines.get(0));
        assertTrue(lines.get(1).matches("commit ([0-9a-f]{12}(-dirty)?|unknown)"), lines.get(1));
        Map<String, String> packs = builtInPackVersions();
        assertFalse(packs.isEmpty());
        packs.forEach((id, version) -> assertTrue(lines.contains("pack " + id + " " + version), id + " " + version + " in " + lines));
        String loaded = Files.readString(classLog);
        assertTrue(loaded.contains("dlproflint.cli.VersionInfo"), "the log is the class-load log");
        assertFalse(loaded.contains("org.drools."), "no Drools class is loaded for --version");
        assertFalse(loaded.contains("org.kie."), "no KIE class is loaded for --version");
    }

    @Test
    void bashCompletionIsValidAndMatchesTheShippedJar() throws Exception {
        Path script = home.resolve("completion/dlprof-lint.bash");
        Dist.Result syntax = Dist.run(home, Map.of("PATH", "/usr/bin:/bin"), "bash", "-n", script.toString());
        assertEquals(0, syntax.code(), syntax::toString);
        Path cwd = freshDir("completion");
        Dist.Result generated = Dist.run(cwd, onlyJava(cwd), launcher.toString(), "completion", "bash");
        assertEquals(0, generated.code());
        assertEquals(generated.out(), Files.readString(script));
        // sourced in bash, it completes the commands
        Dist.Result complete = Dist.run(cwd, Map.of("PATH", "/usr/bin:/bin"), "bash", "-c",
                "source '" + script + "'; COMP_WORDS=(dlprof-lint ru); COMP_CWORD=1; _complete_dlprof-lint; echo \"${COMPREPLY[*]}\"");
        assertEquals(0, complete.code(), complete::toString);
        assertTrue(complete.out().contains("rules"), complete::toString);
    }

    /**
     * Every third-party artifact inside the jar (its {@code META-INF/maven/.../pom.properties}) is listed in
     * THIRD-PARTY.txt with a licence, and its licence text is in {@code licenses/}: the jar's own, one from the
     * project's repository, or the Apache License 2.0 text for Apache-licensed artifacts.
     */
    @Test
    void everyBundledArtifactHasItsLicence() throws Exception {
        String thirdParty = Files.readString(home.resolve("THIRD-PARTY.txt"), StandardCharsets.UTF_8);
        Map<String, String> licenceOf = new TreeMap<>();
        Matcher m = Pattern.compile("(?m)^\\s*(\\(.*\\)) .* \\(([^:()\\s]+):([^:()\\s]+):([^:()\\s]+) - .*\\)$").matcher(thirdParty);
        while (m.find()) licenceOf.put(m.group(2) + ":" + m.group(3) + ":" + m.group(4), m.group(1));
        List<String> problems = new ArrayList<>();
        int bundled = 0;
        try (JarFile jar = new JarFile(home.resolve("lib/dlprof-lint.jar").toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                if (!entry.getName().matches("META-INF/maven/[^/]+/[^/]+/pom\\.properties")) continue;
                Properties p = new Properties();
                try (InputStream in = jar.getInputStream(entry)) {
                    p.load(in);
                }
                String group = p.getProperty("groupId"), artifact = p.getProperty("artifactId");
                if ("dev.dlproflint".equals(group)) continue;
                bundled++;
                String gav = group + ":" + artifact + ":" + p.getProperty("version");
                String licence = licenceOf.get(gav);
                if (licence == null) {
                    problems.add(gav + " is bundled but not in THIRD-PARTY.txt");
                    continue;
                }
                if (licence.contains("Unknown")) problems.add(gav + " has an unknown licence");
                Path texts = home.resolve("licenses").resolve(artifact);
                boolean hasText = Files.isDirectory(texts) && hasFile(texts);
                boolean apache = licence.matches("(?i).*apache.*2\\.0.*");
                boolean publicDomain = licence.matches("(?i).*public domain.*");
                if (!hasText && !apache && !publicDomain) problems.add(gav + " " + licence + " has no licence text in licenses/" + artifact);
            }
        }
        assertTrue(bundled > 30, "the jar bundles its dependencies: " + bundled);
        assertEquals(List.of(), problems);
    }

    private static boolean hasFile(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.anyMatch(Files::isRegularFile);
        }
    }

    /** id -> version from the built-in packs' manifests in the repository. */
    static Map<String, String> builtInPackVersions() throws IOException {
        Map<String, String> packs = new TreeMap<>();
        try (Stream<Path> manifests = Files.walk(Dist.REPO.resolve("rules/src/main/resources/dlproflint/packs"), 2)) {
            for (Path m : manifests.filter(p -> p.getFileName().toString().equals("pack.yaml")).toList()) {
                JsonNode yaml = new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree(m.toFile());
                packs.put(yaml.path("id").asText(), yaml.path("version").asText());
            }
        }
        return packs;
    }
}
