package dlproflint.engine;

import dlproflint.engine.run.RuleFailure;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17 item 7: rules run under a time limit, and whatever a rule does wrong (an update loop, a busy
 * loop in its action or in its conditions, endless recursion, an impossible allocation) ends in a
 * {@link RuleFailure} that names the rule and its file, never in a hang or an escaping {@code Error}.
 * The timeouts guard against a regression hanging the build; they are not benchmarks.
 */
@org.junit.jupiter.api.Tag("hostile")
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RuleWatchdogTest {
    private static final Duration LIMIT = Duration.ofSeconds(2);
    /** For the loops: the limit is what ends them. */
    static LintEngine engine;
    /** For the errors: a limit a loaded machine cannot reach, so only the error itself can end the run. */
    static LintEngine patient;

    @BeforeAll
    static void load() throws RuleLoadException {
        engine = LintEngine.load(TestPacks.only("runaway")).withRuleTimeLimit(LIMIT);
        patient = engine.withRuleTimeLimit(Duration.ofSeconds(60));
    }

    private static RuleFailure failureOn(String path) {
        return failureOn(path, engine);
    }

    private static RuleFailure failureOn(String path, LintEngine engine) {
        ProfileFacts facts = ProfileFacts.builder().profile(new ProfileInfo(path, "nsys-sqlite", null, null, 0, 0)).build();
        long t0 = System.nanoTime();
        RuleFailure f = assertThrows(RuleFailure.class, () -> engine.lint(facts));
        long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
        assertTrue(seconds < 90, path + " took " + seconds + " s");
        return f;
    }

    private static String drl(String name) {
        return TestPacks.dir("runaway").resolve(name + ".drl").toString();
    }

    @Test
    void anUpdateLoopIsHaltedAndNamed() {
        RuleFailure f = failureOn("update-loop");
        assertTrue(f.getMessage().startsWith("rule runaway/update-loop (" + drl("update-loop") + ":6) did not finish within "
                + "the rule time limit of 2 s on update-loop"), f.getMessage());
    }

    @Test
    void aBusyActionIsStoppedAndNamed() {
        RuleFailure f = failureOn("busy-action");
        assertTrue(f.getMessage().startsWith("rule runaway/busy-action (" + drl("busy-action") + ":6) did not finish"), f.getMessage());
        assertTrue(f.getMessage().contains("its action was still running"), f.getMessage());
    }

    @Test
    void aBusyConditionIsStoppedAndNamed() {
        RuleFailure f = failureOn("busy-condition");
        assertTrue(f.getMessage().contains("did not finish within the rule time limit of 2 s on busy-condition"), f.getMessage());
        assertTrue(f.getMessage().startsWith("rule runaway/busy-condition (" + drl("busy-condition") + ":12)"), f.getMessage());
    }

    @Test
    void endlessRecursionIsNamed() {
        RuleFailure f = failureOn("deep-recursion", patient);
        assertEquals("rule runaway/deep-recursion (" + drl("deep-recursion") + ":9) overflowed the stack (endless recursion?) "
                + "on deep-recursion", f.getMessage());
    }

    @Test
    void runningOutOfMemoryIsNamed() {
        RuleFailure f = failureOn("out-of-memory", patient);
        assertTrue(f.getMessage().startsWith("rule runaway/out-of-memory (" + drl("out-of-memory") + ":6) ran out of memory"),
                f.getMessage());
    }

    @Test
    void theEngineStillWorksAfterwards() {
        failureOn("update-loop");
        ProfileFacts ok = ProfileFacts.builder().profile(new ProfileInfo("fine", "nsys-sqlite", null, null, 0, 0)).build();
        assertTrue(engine.lint(ok).isEmpty());
    }
}
