package dlproflint.cli.hostile;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17 item 7 through the command: a site rule that loops (an update cycle, a busy loop in its action
 * or its conditions), throws, overflows the stack or runs out of memory ends the run with exit 2 and one
 * line naming the rule and its file, within the rule time limit ({@code --rule-timeout}); it used to hang
 * or exit 70 without naming the rule. Each rule of the {@code runaway} pack fires on one profile name only.
 */
@org.junit.jupiter.api.Tag("hostile")
@Timeout(value = 600, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RuleFailuresCliTest {
    @TempDir
    Path dir;
    HostileCli cli;

    @BeforeEach
    void setUp() throws IOException {
        cli = new HostileCli(dir);
        Path pack = Files.createDirectories(dir.resolve("runaway-pack"));
        for (String f : List.of("pack.yaml", "update-loop.drl", "busy-action.drl", "busy-condition.drl", "deep-recursion.drl",
                "out-of-memory.drl", "throws.drl")) {
            try (InputStream in = getClass().getClassLoader().getResourceAsStream("hostile/runaway-pack/" + f)) {
                Files.write(pack.resolve(f), in.readAllBytes());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "update-loop, 2, did not finish within the rule time limit of 2 s",
            "busy-action, 2, did not finish within the rule time limit of 2 s",
            "busy-condition, 2, did not finish within the rule time limit of 2 s",
            "deep-recursion, 60, overflowed the stack",
            "out-of-memory, 60, ran out of memory",
            "throws, 60, failed on"})
    void aFailingSiteRuleIsExit2NamingTheRule(String rule, String timeout, String problem) throws IOException {
        new HostileInputs(dir).e2eTrace(rule + ".json");
        long t0 = System.nanoTime();
        // only the runaway rule runs, so the time limit is spent on it alone: with the built-in packs beside it, a loaded
        // machine once let a built-in rule reach a 2 s limit first (and the run named that rule)
        HostileCli.Result r = cli.run(rule + ".json", "--rules", "runaway-pack", "--enable", "runaway/" + rule,
                "--rule-timeout", timeout, "--report", "json=out.json");
        long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
        assertEquals(2, r.code(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        String drl = dir.resolve("runaway-pack").resolve(rule + ".drl").toString();
        assertTrue(r.err().startsWith("dlprof-lint: rule runaway/" + rule + " (" + drl + ":"), "names the rule and its file: " + r);
        assertTrue(r.err().contains(problem), r::toString);
        assertFalse(r.err().contains("internal error") || r.err().contains("\tat "), r::toString);
        assertFalse(Files.exists(dir.resolve("out.json")), "no report from a failed run");
        assertTrue(seconds < 90, "bounded by the time limit: " + seconds + " s");
    }

    /** Issue 28: a pack of one rule whose action (or the text around it) is {@code drl}, written by the test. */
    private Path pack(String name, String manifestExtra, String drl) throws IOException {
        Path p = Files.createDirectories(dir.resolve(name));
        Files.writeString(p.resolve("pack.yaml"), "id: " + name + "\nversion: 1.0.0\ndescription: issue 28 case\n" + manifestExtra);
        Files.writeString(p.resolve("r.drl"), "package site.t;\nimport dlproflint.facts.*;\nimport dlproflint.engine.*;\n"
                + "import dlproflint.findings.*;\nglobal dlproflint.engine.FindingSink findings;\n" + drl);
        return p;
    }

    private static String rule(String name, String when, String then) {
        return "rule \"" + name + "\"\n    @id(\"" + "PACK/" + name + "\") @name(\"N\") @severity(\"error\") @category(\"c\")"
                + " @since(\"1.0.0\") @summary(\"S.\")\nwhen\n" + when + "\nthen\n" + then + "\nend\n";
    }

    private HostileCli.Result lintWith(Path pack, String... more) throws IOException {
        new HostileInputs(dir).e2eTrace("trace.json");
        List<String> args = new java.util.ArrayList<>(List.of("trace.json", "--rules", pack.toString(), "--report", "json=out.json"));
        args.addAll(List.of(more));
        return cli.run(args.toArray(String[]::new));
    }

    private void assertRefused(HostileCli.Result r, String... expected) {
        assertEquals(2, r.code(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        for (String e : expected) assertTrue(r.err().contains(e), "'" + e + "' in " + r);
        assertFalse(r.err().contains("internal error") || r.err().contains("\tat "), r::toString);
        assertFalse(Files.exists(dir.resolve("out.json")), "no report");
    }

    /** What a site rule may not do is refused at load, before any of it runs (exit 2, file and line named). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "exit|System.exit(0);|'System': site rules may not use System",
            "halt|Runtime.getRuntime().halt(0);|'Runtime': site rules may not use Runtime",
            "passwd|findings.report(kcontext, Subject.profile(), java.nio.file.Files.readString(java.nio.file.Path.of(\"/etc/passwd\")), \"\", java.util.Map.of());|file I/O",
            "shell|new ProcessBuilder(\"sh\", \"-c\", \"touch pwned\").start();|processes",
            "socket|new java.net.Socket(\"127.0.0.1\", 9).close();|network I/O",
            "offheap|java.nio.ByteBuffer.allocateDirect(3 << 30);|memory outside the heap"})
    void whatSiteRulesMayNotDoIsRefusedAtLoad(String name, String action, String expected) throws IOException {
        Path p = pack(name, "", rule(name, "    $p : ProfileInfo()", "    " + action).replace("PACK/", name + "/"));
        HostileCli.Result r = lintWith(p);
        assertRefused(r, p.resolve("r.drl") + ":11: ", expected, "trusted: true");
        assertFalse(Files.exists(dir.resolve("pwned")), "nothing ran");
    }

    @Test
    void aRuleThatInsertsWithoutEndIsStoppedByTheFactBudget() throws IOException {
        Path p = pack("grow", "", "declare Tick\n    n : long\nend\n"
                + rule("grow", "    $p : ProfileInfo()\n    $n : Number() from accumulate(Tick(), count(1))",
                "    insert(new Tick($n.longValue()));").replace("PACK/", "grow/"));
        long t0 = System.nanoTime();
        HostileCli.Result r = lintWith(p);
        assertRefused(r, "rule grow/grow (" + p.resolve("r.drl") + ":", "inserted more than 100000 facts");
        assertTrue((System.nanoTime() - t0) / 1_000_000_000L < 120);
    }

    @Test
    void generatedRulesBeyondTheLimitsAreRefusedBeforeCompiling() throws IOException {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 3000; i++) many.append(rule("r" + i, "    ProfileInfo()", "    int x = " + i + ";").replace("PACK/", "many/"));
        long t0 = System.nanoTime();
        assertRefused(lintWith(pack("many", "", many.toString())), "has more than 1000 rules");
        String terms = "1+" .repeat(20_000) + "1";
        assertRefused(lintWith(pack("terms", "", rule("t", "    eval(" + terms + " > 0)", "    int x = 1;").replace("PACK/", "terms/"))),
                "characters long; at most 32768 per rule");
        String deep = "(".repeat(5000) + "1" + ")".repeat(5000);
        assertRefused(lintWith(pack("deep", "", rule("d", "    eval(" + deep + " > 0)", "    int x = 1;").replace("PACK/", "deep/"))),
                "brackets nested more than 64 deep");
        assertTrue((System.nanoTime() - t0) / 1_000_000_000L < 60, "refused without compiling");
    }

    @Test
    void packMetadataIsBoundedAndHelpLinksAreHttp() throws IOException, InterruptedException {
        Path huge = pack("huge", "", rule("x", "    ProfileInfo()", "    int x = 1;").replace("PACK/", "huge/"));
        Files.writeString(huge.resolve("pack.yaml"), "id: huge\nversion: 1.0.0\ndescription: " + "d".repeat(5 << 20) + "\n");
        assertRefused(lintWith(huge), "pack.yaml: rule pack file of 5242", "at most 1 MiB per file are read");
        Path js = pack("js", "helpUri: \"javascript:alert(1)//{name}\"\n", rule("x", "    ProfileInfo()", "    int x = 1;").replace("PACK/", "js/"));
        assertRefused(lintWith(js), "pack.yaml:4: helpUri 'javascript:alert(1)//{name}' is refused: its scheme 'javascript:' is not http or https");
        Path fifo = pack("fifo", "", rule("x", "    ProfileInfo()", "    int x = 1;").replace("PACK/", "fifo/"));
        new HostileInputs(fifo).fifo("more.drl");
        assertRefused(lintWith(fifo), fifo.resolve("more.drl") + ": is a named pipe (FIFO), not a rule pack file");
        // hostile text in metadata is data: escaped where it is shown, not refused
        Path text = pack("text", "", rule("x", "    ProfileInfo()", "    int x = 1;").replace("PACK/", "text/")
                .replace("@summary(\"S.\")", "@summary(\"Summary \u001b[31mred\u202Eevil <script>\")"));
        HostileCli.Result list = cli.run("rules", "list", "--rules", text.toString(), "--no-config");
        assertEquals(0, list.code(), list::toString);
        assertFalse(list.out().contains("\u001b") || list.out().contains("\u202E"), "escaped on the terminal: " + list);
        assertTrue(list.out().contains("text/x"), list::toString);
    }
}
