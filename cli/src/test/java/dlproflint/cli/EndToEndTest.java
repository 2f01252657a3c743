package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The real command on a real trace, reader, Drools engine, site pack and reporters. */
class EndToEndTest {
    @TempDir
    Path dir;
    E2eFixture fx;
    CliHarness cli;

    @BeforeEach
    void setUp() throws IOException {
        fx = new E2eFixture(dir);
        cli = fx.cli();
    }

    private static void assertOneLine(CliHarness.Result r, int code, String contains) {
        assertEquals(code, r.code(), r::toString);
        assertEquals(1, r.errLines().length, r::toString);
        assertTrue(r.err().contains(contains), r::toString);
    }

    @Test
    void textReportOnStdoutByDefault() {
        CliHarness.Result r = cli.run("trace.json", "--rules", "site-pack");
        assertEquals(1, r.code(), "site/profile-seen is an error: " + r);
        assertTrue(r.out().contains("site/profile-seen") && r.out().contains("volta_sgemm_128x64_nn"), r::toString);
        assertFalse(r.out().contains("\u001b["), "no colour when stdout is not a terminal");
        assertEquals("", r.err(), "nothing on stderr for a clean run");
    }

    @Test
    void notAProfileExits3WithOneLine() throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "not a profile\n");
        assertOneLine(cli.run("notes.txt", "--rules", "site-pack"), 3, "dlprof-lint: notes.txt: unrecognised profile format");
        Files.writeString(dir.resolve("broken.json"), "{\"traceEvents\": [ {\"ph\": ");
        CliHarness.Result r = cli.run("broken.json", "--rules", "site-pack");
        assertOneLine(r, 3, "dlprof-lint: broken.json: ");
        assertFalse(r.err().contains("\tat "));
    }

    @Test
    void ruleErrorExits2BeforeAnyProfileIsRead() throws IOException {
        Path broken = Files.createDirectories(dir.resolve("broken-pack"));
        for (String f : new String[]{"pack.yaml", "bad.drl", "bad.md"}) E2eFixture.copy("e2e/broken-pack/" + f, broken.resolve(f));
        // The profile does not even parse: exit 2 proves the rules were checked first.
        Files.writeString(dir.resolve("notes.txt"), "not a profile\n");
        assertOneLine(cli.run("notes.txt", "--rules", "broken-pack"), 2, "bad.drl:12: ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"error", "warning", "note", "none"})
    void failOnThresholdDecidesTheExitCode(String level) throws IOException {
        for (List<String> extra : List.of(List.<String>of(), List.of("--disable", "site/profile-seen"))) {
            List<String> args = new java.util.ArrayList<>(List.of("trace.json", "--rules", "site-pack", "--fail-on", level,
                    "--report", "json=out.json"));
            args.addAll(extra);
            CliHarness.Result r = cli.run(args.toArray(String[]::new));
            List<String> found = E2eFixture.severities(E2eFixture.json(dir.resolve("out.json")));
            assertFalse(found.isEmpty(), "the site pack reports kernels");
            List<String> order = List.of("note", "warning", "error");
            boolean expectFail = !level.equals("none") && found.stream().anyMatch(s -> order.indexOf(s) >= order.indexOf(level));
            assertEquals(expectFail ? 1 : 0, r.code(), level + " " + extra + " with " + found + ": " + r);
        }
    }

    @Test
    void failOnErrorPassesWhenOnlyWarningsRemain() {
        assertEquals(0, cli.run("trace.json", "--rules", "site-pack", "--disable", "site/profile-seen").code());
        assertEquals(1, cli.run("trace.json", "--rules", "site-pack", "--disable", "site/profile-seen", "--fail-on", "warning").code());
    }

    @Test
    void unknownRuleIdOnTheCommandLineIsAUsageError() {
        assertOneLine(cli.run("trace.json", "--rules", "site-pack", "--enable", "site/kernel-sen"), 2, "unknown rule id 'site/kernel-sen'");
    }

    @Test
    void unknownRuleIdInTheConfigNamesFileAndLine() throws IOException {
        Files.writeString(dir.resolve(".dlprof-lint.yml"), E2eFixture.CONFIG + "ruleDirs: [site-pack]\nrules:\n  severity:\n    site/kernel-sen: error\n");
        int line = (int) E2eFixture.CONFIG.lines().count() + 4;
        assertOneLine(cli.run("trace.json"), 2, ".dlprof-lint.yml:" + line + ": unknown rule id 'site/kernel-sen'");
    }

    @Test
    void baselineRoundTripHidesKnownFindingsOnly() throws IOException {
        CliHarness.Result write = cli.run("baseline", "trace.json", "--rules", "site-pack", "--output", "known.json");
        assertEquals(0, write.code(), write::toString);
        JsonNode base = E2eFixture.json(dir.resolve("known.json"));
        assertEquals(3, base.path("findings").size(), base::toString);
        for (JsonNode e : base.path("findings")) {
            assertFalse(e.path("ruleId").asText().isEmpty());
            assertFalse(e.path("fingerprint").asText().isEmpty());
        }

        CliHarness.Result again = cli.run("trace.json", "--rules", "site-pack", "--baseline", "known.json",
                "--fail-on", "note", "--report", "json=out.json");
        assertEquals(0, again.code(), again::toString);
        assertEquals(List.of(), E2eFixture.severities(E2eFixture.json(dir.resolve("out.json"))));
        assertTrue(again.err().contains("3 suppressed or baselined"), again::toString);
        assertFalse(again.err().contains("matched no finding"), again::toString);

        // A problem that went away leaves a stale entry: said on stderr so the baseline can shrink.
        CliHarness.Result fixed = cli.run("trace.json", "--rules", "site-pack", "--baseline", "known.json",
                "--disable", "site/profile-seen", "--report", "json=out.json");
        assertEquals(0, fixed.code(), fixed::toString);
        assertTrue(fixed.err().contains("note: 1 of 3 baseline entries matched no finding"), fixed::toString);

        fx.traceWithExtraKernel("new_kernel_xyz");
        CliHarness.Result changed = cli.run("trace2.json", "--rules", "site-pack", "--baseline", "known.json",
                "--fail-on", "warning", "--report", "json=out.json");
        assertEquals(1, changed.code(), changed::toString);
        List<String> fresh = E2eFixture.subjects(E2eFixture.json(dir.resolve("out.json")));
        assertEquals(1, fresh.size(), fresh::toString);
        assertTrue(fresh.get(0).startsWith("site/kernel-seen kernel:") && fresh.get(0).contains("new_kernel_xyz"), fresh::toString);
    }

    @Test
    void suppressionHidesUntilItExpiresThenWarns() throws IOException {
        Files.writeString(dir.resolve(".dlprof-lint.yml"), E2eFixture.CONFIG + """
                ruleDirs: [site-pack]
                suppressions:
                  - rule: site/kernel-seen
                    subject: "kernel:volta_*"
                    reason: cuBLAS picks this kernel; accepted
                    expires: 2026-06-30
                """);
        CliHarness.Result active = cli.today(LocalDate.of(2026, 6, 30)).run("trace.json", "--report", "json=out.json");
        List<String> subjects = E2eFixture.subjects(E2eFixture.json(dir.resolve("out.json")));
        assertFalse(subjects.stream().anyMatch(s -> s.contains("volta")), subjects::toString);
        assertTrue(subjects.stream().anyMatch(s -> s.startsWith("site/kernel-seen")), "other kernels still reported");
        assertFalse(active.err().contains("expired"), active::toString);

        CliHarness.Result expired = cli.today(LocalDate.of(2026, 7, 1)).run("trace.json", "--report", "json=out.json");
        assertTrue(E2eFixture.subjects(E2eFixture.json(dir.resolve("out.json"))).stream().anyMatch(s -> s.contains("volta")));
        assertTrue(expired.err().contains("warning: .dlprof-lint.yml: suppression of site/kernel-seen for 'kernel:volta_*' expired on 2026-06-30"),
                expired::toString);
    }

    @Test
    void severalProfilesAreReportedInTheOrderGiven() throws IOException {
        fx.traceWithExtraKernel("extra_kernel");
        Files.copy(dir.resolve("trace.json"), dir.resolve("a.json"));
        CliHarness.Result r = cli.run("trace2.json", "a.json", "trace.json", "--rules", "site-pack", "-j", "3",
                "--report", "json=out.json", "--fail-on", "none");
        assertEquals(0, r.code(), r::toString);
        JsonNode profiles = E2eFixture.json(dir.resolve("out.json")).path("profiles");
        assertEquals(3, profiles.size());
        assertTrue(profiles.get(0).path("path").asText().endsWith("trace2.json"));
        assertTrue(profiles.get(1).path("path").asText().endsWith("a.json"));
        assertTrue(profiles.get(2).path("path").asText().endsWith("trace.json"));
    }

    @Test
    void oneUnreadableProfileAmongSeveralExits3AndWritesNoReport() throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "x\n");
        CliHarness.Result r = cli.run("trace.json", "notes.txt", "--rules", "site-pack", "--report", "json=out.json");
        assertOneLine(r, 3, "notes.txt: ");
        assertFalse(Files.exists(dir.resolve("out.json")));
    }

    @Test
    void severalReportsInOneRunAndNoTemporaryFilesLeft() throws IOException {
        CliHarness.Result r = cli.run("trace.json", "--rules", "site-pack", "--report", "json=r/out.json",
                "--report", "csv=r/out.csv", "--report", "sarif=r/out.sarif", "--report", "text", "--fail-on", "none");
        // the folder does not exist yet: refused before reading anything
        assertEquals(2, r.code(), r::toString);
        Files.createDirectory(dir.resolve("r"));
        r = cli.run("trace.json", "--rules", "site-pack", "--report", "json=r/out.json",
                "--report", "csv=r/out.csv", "--report", "sarif=r/out.sarif", "--report", "text", "--fail-on", "none");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("site/kernel-seen"), "text went to stdout");
        assertEquals(3, E2eFixture.json(dir.resolve("r/out.json")).path("profiles").get(0).path("findings").size());
        assertTrue(Files.readString(dir.resolve("r/out.csv")).lines().count() >= 4, "header + 3 rows");
        assertEquals("2.1.0", E2eFixture.json(dir.resolve("r/out.sarif")).path("version").asText());
        try (Stream<Path> s = Files.list(dir.resolve("r"))) {
            assertEquals(List.of("out.csv", "out.json", "out.sarif"), s.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void htmlReportIsOneSelfContainedFile() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(dlproflint.reporters.Reporters.isKnown("html"),
                "the HTML reporter is not on the class path of this build");
        CliHarness.Result r = cli.run("trace.json", "--rules", "site-pack", "--report", "html=report.html", "--fail-on", "none");
        assertEquals(0, r.code(), r::toString);
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.toLowerCase(java.util.Locale.ROOT).contains("<html"), "an HTML document");
        assertTrue(html.contains("site/kernel-seen"), "with the findings");
        assertTrue(r.err().startsWith("dlprof-lint: 3 findings in 1 profile"), r::toString);
    }

    @Test
    void failingReportLeavesNoFileBehind() throws IOException {
        // The profile lies outside the repository and no anchor is configured: SARIF has no location
        // GitHub accepts, so the reporter refuses; the half-made report must not appear.
        Path repo2 = Files.createDirectories(dir.resolve("elsewhere/repo"));
        Files.createDirectory(repo2.resolve(".git"));
        CliHarness.Result r = new CliHarness(repo2).run("../../trace.json", "--rules", "../../site-pack",
                "--report", "sarif=out.sarif");
        assertEquals(2, r.code(), r::toString);
        assertEquals(1, r.errLines().length, r::toString);
        try (Stream<Path> s = Files.list(repo2)) {
            assertEquals(List.of(".git"), s.map(p -> p.getFileName().toString()).toList());
        }
    }

    @Test
    void colourFollowsColorOptionAndNoColor() {
        assertTrue(cli.run("trace.json", "--rules", "site-pack", "--color", "always").out().contains("\u001b["));
        assertFalse(cli.run("trace.json", "--rules", "site-pack", "--color", "never").out().contains("\u001b["));
        CliHarness forced = fx.cli().env("FORCE_COLOR", "1");
        assertTrue(forced.run("trace.json", "--rules", "site-pack").out().contains("\u001b["));
        CliHarness noColor = fx.cli().env("FORCE_COLOR", "1").env("NO_COLOR", "1");
        assertFalse(noColor.run("trace.json", "--rules", "site-pack").out().contains("\u001b["), "NO_COLOR wins");
    }

    @Test
    void rulesListExplainAndTest() {
        CliHarness.Result list = cli.run("rules", "list", "--rules", "site-pack");
        assertEquals(0, list.code(), list::toString);
        assertTrue(list.out().contains("pack site 0.3.0"), list::toString);
        assertTrue(list.out().lines().anyMatch(l -> l.startsWith("site/kernel-seen") && l.contains("warning")), list::toString);

        CliHarness.Result explain = cli.run("rules", "explain", "site/kernel-seen", "--rules", "site-pack");
        assertEquals(0, explain.code(), explain::toString);
        assertTrue(explain.out().startsWith("# site/kernel-seen"), explain::toString);

        assertEquals(2, cli.run("rules", "explain", "site/nope", "--rules", "site-pack").code());

        CliHarness.Result test = cli.run("rules", "test", "site-pack");
        assertEquals(0, test.code(), test::toString);
        assertTrue(test.out().contains("4 cases: 4 passed, 0 failed"), test::toString);
    }

    @Test
    void rulesTestFailsOnAFailingCase() throws IOException {
        Path cases = dir.resolve("site-pack/kernel-seen.cases.yaml");
        Files.writeString(cases, Files.readString(cases).replace("count: 2", "count: 3"));
        CliHarness.Result test = cli.run("rules", "test", "site-pack");
        assertEquals(1, test.code(), test::toString);
        assertTrue(test.out().contains("FAIL site/kernel-seen"), test::toString);
    }

    @Test
    void rulesTestRunsTheMetaChecksItPromises() throws IOException {
        Files.delete(dir.resolve("site-pack/kernel-seen.md"));
        Path manifest = dir.resolve("site-pack/pack.yaml");
        Files.writeString(manifest, Files.readString(manifest).replaceAll("(?m)^helpUri:.*\n?", ""));
        CliHarness.Result test = cli.run("rules", "test", "site-pack");
        assertEquals(1, test.code(), test::toString);
        assertTrue(test.out().contains("4 cases: 4 passed, 0 failed"), test::toString);
        assertTrue(test.out().contains("META site/kernel-seen: no help page kernel-seen.md beside the rule"), test::toString);
        assertTrue(test.out().contains("META site/kernel-seen: no help link: add a helpUri template to site's pack.yaml"), test::toString);
    }

    @Test
    void rulesTestExits2OnATypoInAParameterOrMessageId() throws IOException {
        Path drl = dir.resolve("site-pack/profile-seen.drl");
        String good = Files.readString(drl);
        Files.writeString(drl, good.replace("Param(name == \"minKernels\"", "Param(name == \"minKernel\""));
        CliHarness.Result test = cli.run("rules", "test", "site-pack");
        assertEquals(2, test.code(), test::toString);
        assertTrue(test.err().contains("profile-seen.drl:16: rule \"profile-seen\": reads parameter 'minKernel', which its @params does not"
                + " declare (declared: minKernels)"), test::toString);
        Files.writeString(drl, good.replace("Message.of(\"found\")", "Message.of(\"fuond\")"));
        test = cli.run("rules", "test", "site-pack");
        assertEquals(2, test.code(), test::toString);
        assertTrue(test.err().contains("profile-seen.drl:20: rule \"profile-seen\": reports message 'fuond', which its @messages does not"
                + " declare (declared: found)"), test::toString);
    }
}
