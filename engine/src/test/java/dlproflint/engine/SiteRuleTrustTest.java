package dlproflint.engine;

import dlproflint.engine.run.RuleFailure;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 28 item 6: site rules are code, and what they may do is checked before any of it runs. The packs are written
 * by the tests into a scratch folder; each is refused (or not) at load, before compilation, naming file, line and
 * what was found. Building a rule base runs rule code (an {@code eval} without facts is evaluated at load), so that
 * runs under the rule time limit; listing rules runs none; a rule that inserts without end is stopped by the fact
 * budget.
 */
@org.junit.jupiter.api.Tag("hostile")
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SiteRuleTrustTest {
    @TempDir
    Path dir;

    private static final String HEAD = "package site.t;\nimport dlproflint.facts.*;\nimport dlproflint.engine.*;\nimport dlproflint.findings.*;\n"
            + "global dlproflint.engine.FindingSink findings;\n";

    private static String rule(String name, String when, String then) {
        return "rule \"" + name + "\"\n    @id(\"t/" + name + "\") @name(\"N\") @severity(\"error\") @category(\"c\") @since(\"1.0.0\")"
                + " @summary(\"S.\")\nwhen\n" + when + "\nthen\n" + then + "\nend\n";
    }

    private Path pack(String drl, boolean trusted) throws IOException {
        Path p = Files.createDirectories(dir.resolve("pack" + System.nanoTime()));
        Files.writeString(p.resolve("pack.yaml"), "id: t\nversion: 1.0.0\ndescription: test\n" + (trusted ? "trusted: true\n" : ""));
        Files.writeString(p.resolve("r.drl"), HEAD + drl);
        return p;
    }

    private static EngineOptions options(Path pack) {
        return new EngineOptions(false, List.of(pack), RunConfig.DEFAULT, null).withCodeTimeLimit(Duration.ofSeconds(2));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "System.exit(0);|System",
            "Runtime.getRuntime().halt(0);|Runtime",
            "new ProcessBuilder(\"sh\", \"-c\", \"id\").start();|processes",
            "java.nio.file.Files.readString(java.nio.file.Path.of(\"/etc/passwd\"));|file I/O",
            "new java.net.Socket(\"127.0.0.1\", 9);|network I/O",
            "new Thread(() -> {}).start();|threads",
            "Object o = \"x\".getClass().getMethods();|reflection",
            "Class.forName(\"java.lang.Runtime\");|reflection",
            "java.nio.ByteBuffer.allocateDirect(1 << 30);|memory outside the heap",
            "\\u0053ystem.exit(0);|System",
            "dlproflint.cli.Main.main(new String[0]);|dlprof-lint's internals",
            "kcontext.getKieRuntime().getKieBase();|the rule engine's internals"})
    void forbiddenCodeIsRefusedAtLoadNamingLineAndWhat(String code, String what) throws IOException {
        Path p = pack(rule("x", "    ProfileInfo()", "    " + code), false);
        RuleLoadException e = assertThrows(RuleLoadException.class, () -> LintEngine.load(options(p)));
        assertTrue(e.getMessage().startsWith(p.resolve("r.drl") + ":11: "), e.getMessage());
        assertTrue(e.getMessage().contains("site rules may not use " + what), e.getMessage());
        assertTrue(e.getMessage().contains("trusted: true"), "says how to allow it: " + e.getMessage());
    }

    @Test
    void wordsInStringsAndCommentsAreNotCode() throws IOException, RuleLoadException {
        Path p = pack("// System.exit(0) would end the process\n" + rule("x", "    ProfileInfo(path != \"Runtime.exec\")",
                "    /* new Thread() */ String s = \"File and Socket and System.exit\";"), false);
        assertEquals(1, LintEngine.load(options(p)).rules().size());
    }

    @Test
    void theLimitsHoldForTrustedPacksToo() throws IOException {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i <= 1000; i++) many.append(rule("r" + i, "    ProfileInfo()", "    int x = 1;"));
        RuleLoadException tooMany = assertThrows(RuleLoadException.class, () -> LintEngine.load(options(pack(many.toString(), true))));
        assertTrue(tooMany.getMessage().contains("more than 1000 rules"), tooMany.getMessage());

        String deep = "(".repeat(5000) + "1" + ")".repeat(5000);
        RuleLoadException nested = assertThrows(RuleLoadException.class,
                () -> LintEngine.load(options(pack(rule("x", "    eval(" + deep + " > 0)", "    int x = 1;"), true))));
        assertTrue(nested.getMessage().contains("brackets nested more than 64 deep"), nested.getMessage());

        String terms = "1" + " + 1".repeat(20_000);
        RuleLoadException longRule = assertThrows(RuleLoadException.class,
                () -> LintEngine.load(options(pack(rule("x", "    eval(" + terms + " > 0)", "    int x = 1;"), true))));
        assertTrue(longRule.getMessage().contains("characters long; at most 32768 per rule"), longRule.getMessage());
    }

    private static final String SPIN = "function boolean spin() { long i = 1; while (i != 0) { i = (i * 31 + 7) % 1000003 + 1; } return true; }\n";
    private static final String SWALLOW = "function boolean swallow() { while (true) { try { Thread.sleep(100000); }"
            + " catch (InterruptedException e) { } } }\n";

    /** An eval without facts runs when the rule base is built: bounded by the rule time limit (here 2 s + 10 s). */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"spin, false", "swallow, true"})
    void codeThatNeverReturnsAtLoadEndsTheLoadNamingTheRule(String function, boolean trusted) throws IOException {
        Path p = pack((function.equals("spin") ? SPIN : SWALLOW) + rule("stuck", "    eval(" + function + "())", "    int x = 1;"), trusted);
        long t0 = System.nanoTime();
        RuleLoadException e = assertThrows(RuleLoadException.class, () -> LintEngine.load(options(p)));
        long s = (System.nanoTime() - t0) / 1_000_000_000L;
        assertTrue(e.getMessage().startsWith(p.resolve("r.drl") + ":"), e.getMessage());
        assertTrue(e.getMessage().contains("rule \"stuck\" of pack t: building the pack's rule base did not finish within 12 s"), e.getMessage());
        assertTrue(s < 120, "bounded: " + s + " s");
    }

    @Test
    void listingReadsTheAnnotationsAndRunsNoRuleCode() throws IOException, RuleLoadException {
        String marker = "dlproflint.test.evalRan." + System.nanoTime();
        Path p = pack("function boolean mark() { System.setProperty(\"" + marker + "\", \"yes\"); return true; }\n"
                + rule("marks", "    eval(mark())", "    int x = 1;"), true);
        LintEngine catalog = LintEngine.load(options(p).withCatalogOnly());
        assertEquals(List.of("t/marks"), catalog.rules().stream().map(r -> r.id()).toList());
        assertEquals("S.", catalog.rules().get(0).summary());
        assertNull(System.getProperty(marker), "listing ran the rule's code");
        LintEngine.load(options(p));
        assertEquals("yes", System.getProperty(marker), "building the rule base does run it (what the listing avoids)");
    }

    @Test
    void aRuleThatInsertsWithoutEndIsStoppedByTheFactBudget() throws IOException, RuleLoadException {
        Path p = pack("declare Tick\n    n : long\nend\n"
                + rule("grow", "    $p : ProfileInfo()\n    $n : Number() from accumulate(Tick(), count(1))", "    insert(new Tick($n.longValue()));"),
                false);
        LintEngine engine = LintEngine.load(options(p)).withRuleTimeLimit(Duration.ofSeconds(60));
        ProfileFacts facts = ProfileFacts.builder().profile(new ProfileInfo("p.json", "kineto", null, null, 0, 0)).build();
        RuleFailure f = assertThrows(RuleFailure.class, () -> engine.lint(facts));
        assertTrue(f.getMessage().contains("rule t/grow ("), f.getMessage());
        assertTrue(f.getMessage().contains("inserted more than 100000 facts"), f.getMessage());
    }
}
