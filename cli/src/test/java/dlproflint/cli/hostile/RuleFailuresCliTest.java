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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17 item 7 through the command: a site rule that loops (an update cycle, a busy loop in its action
 * or its conditions), throws, overflows the stack or runs out of memory ends the run with exit 2 and one
 * line naming the rule and its file, within the rule time limit ({@code --rule-timeout}); it used to hang
 * or exit 70 without naming the rule. Each rule of the {@code runaway} pack fires on one profile name only.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
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
}
