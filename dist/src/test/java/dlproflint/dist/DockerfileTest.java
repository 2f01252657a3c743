package dlproflint.dist;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Dockerfile, checked without a Docker engine (this machine has none): what it copies from the build
 * context exists and is not ignored, what it copies from the build stage is made there from an archive name
 * this build produces, its entry point is the launcher the archive holds, and its build command names
 * modules, profiles and properties that exist.
 */
class DockerfileTest {
    record Instruction(String keyword, String args) {
    }

    static List<Instruction> instructions;

    @BeforeAll
    static void parse() throws IOException {
        instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : Files.readAllLines(Dist.REPO.resolve("Dockerfile"))) {
            if (current.isEmpty() && (line.isBlank() || line.strip().startsWith("#"))) continue;
            boolean more = line.endsWith("\\");
            current.append(more ? line.substring(0, line.length() - 1) : line).append(' ');
            if (!more) {
                String s = current.toString().strip();
                int sp = s.indexOf(' ');
                instructions.add(new Instruction(s.substring(0, sp).toUpperCase(), s.substring(sp + 1).strip()));
                current.setLength(0);
            }
        }
    }

    private static List<Instruction> all(String keyword) {
        return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
    }

    @Test
    void buildsInAMavenStageAndRunsOnASlimBase() {
        List<Instruction> from = all("FROM");
        assertEquals(2, from.size(), "two stages");
        assertTrue(from.get(0).args().matches("maven:\\S*temurin-17\\S* AS build"), from.get(0).args());
        assertTrue(from.get(1).args().contains("slim"), "a small runtime base: " + from.get(1).args());
        assertEquals("[\"/opt/dlprof-lint/bin/dlprof-lint\"]", all("ENTRYPOINT").get(0).args());
        assertEquals("/work", all("WORKDIR").get(all("WORKDIR").size() - 1).args(), "profiles are mounted on /work");
    }

    /** Dependencies are not downloaded again for every change of the source, and the image does not run as root. */
    @Test
    void cachesMavensRepositoryAndRunsAsAnUnprivilegedUser() throws IOException {
        assertTrue(Files.readAllLines(Dist.REPO.resolve("Dockerfile")).get(0).startsWith("# syntax=docker/dockerfile:1"),
                "RUN --mount needs the BuildKit syntax");
        String build = all("RUN").get(0).args();
        assertTrue(build.startsWith("--mount=type=cache,target=/root/.m2 "), "Maven's repository is a build cache: " + build);
        List<Instruction> users = all("USER");
        assertEquals(1, users.size(), "one USER, in the runtime stage");
        int runtime = instructions.lastIndexOf(all("FROM").get(1));
        assertTrue(instructions.indexOf(users.get(0)) > runtime, "the runtime stage's user");
        String user = users.get(0).args().split(":")[0];
        assertFalse(user.equals("root") || user.equals("0"), "not root: " + user);
    }

    @Test
    void copiesOnlyWhatExists() throws IOException {
        List<PathMatcher> ignored = new ArrayList<>();
        for (String p : Files.readAllLines(Dist.REPO.resolve(".dockerignore"))) {
            if (p.isBlank() || p.startsWith("#")) continue;
            String glob = p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
            ignored.add(FileSystems.getDefault().getPathMatcher("glob:" + glob));
            ignored.add(FileSystems.getDefault().getPathMatcher("glob:" + glob + "/**"));
        }
        assertTrue(ignored.stream().anyMatch(m -> m.matches(Path.of("dist/target/x.jar"))), "build outputs are not sent");
        for (Instruction copy : all("COPY")) {
            String[] parts = copy.args().split("\\s+");
            if (parts[0].startsWith("--from=")) continue;
            for (int i = 0; i < parts.length - 1; i++) {
                Path source = Path.of(parts[i]).normalize();
                assertTrue(Files.exists(Dist.REPO.resolve(source)), "COPY source exists: " + parts[i]);
                assertFalse(ignored.stream().anyMatch(m -> m.matches(source)) && !parts[i].equals("."), "not ignored: " + parts[i]);
            }
        }
        // the whole context holds what the build stage compiles
        for (String needed : List.of("pom.xml", "dist/pom.xml", "cli/pom.xml", "docs/rules/index.md", "README.md")) {
            Path p = Path.of(needed);
            assertTrue(Files.exists(Dist.REPO.resolve(p)) && ignored.stream().noneMatch(m -> m.matches(p)), needed);
        }
    }

    @Test
    void theRuntimeStageCopiesWhatTheBuildStageUnpacksFromThisBuildsArchive() throws Exception {
        Instruction fromBuild = all("COPY").stream().filter(c -> c.args().startsWith("--from=build")).findFirst().orElseThrow();
        String[] parts = fromBuild.args().split("\\s+");
        String source = parts[1];
        String run = all("RUN").get(0).args();
        assertTrue(run.contains("mkdir -p " + source), "the build stage makes " + source);
        Matcher tar = Pattern.compile("tar -xzf (\\S+) -C " + Pattern.quote(source) + " --strip-components=1").matcher(run);
        assertTrue(tar.find(), "the build stage unpacks an archive into " + source + ": " + run);
        // the glob names the jlink archive the release profile makes, for whichever Linux platform builds it
        PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:" + tar.group(1));
        for (String platform : List.of("linux-x64", "linux-aarch64")) {
            assertTrue(glob.matches(Path.of("dist/target/dlprof-lint-" + Dist.VERSION + "-" + platform + ".tar.gz")), platform);
        }
        assertFalse(glob.matches(Path.of("dist/target/dlprof-lint-" + Dist.VERSION + ".tar.gz")), "not the archive without a runtime");
        String pom = Files.readString(Dist.REPO.resolve("dist/pom.xml"));
        assertTrue(pom.contains("<id>release</id>") && run.contains("-Prelease") && run.contains("-pl dist -am"), run);
        assertTrue(Files.readString(Dist.REPO.resolve("cli/src/main/resources/dlproflint/cli/version.properties"))
                .contains("${git.commit.id.abbrev}") && run.contains("-Dgit.commit.id.abbrev="), "the commit build argument reaches --version");
        // the entry point is in the archive (the runtime archive holds the same files plus runtime/)
        Path home = Dist.unpacked(Dist.archive(".tar.gz"));
        String entry = all("ENTRYPOINT").get(0).args().replaceAll("[\\[\\]\"]", "");
        assertTrue(entry.startsWith(source + "/"));
        assertTrue(Files.isExecutable(home.resolve(entry.substring(source.length() + 1))), entry);
    }
}
