package dlproflint.engine.compile;

import dlproflint.engine.RuleLoadException;
import dlproflint.engine.catalog.DrlOutline;
import dlproflint.engine.pack.PackFile;
import dlproflint.engine.pack.RulePack;
import dlproflint.engine.run.RuleCode;
import org.kie.api.KieBase;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds a site pack's rule base under a time limit. Drools runs rule code while it builds one: the executable model
 * evaluates each {@code eval(...)} that uses no fact once, when the model is instantiated, long before any profile is
 * read, and outside any session's watchdog. A condition that never returns there (a busy loop, a sleep that swallows
 * interrupts) would hang the command at load; here it ends the load within the limit with a {@link RuleLoadException}
 * naming the rule (exit 2), and the thread running it is stopped or abandoned ({@link RuleCode}).
 */
final class SiteKieBase {
    /** Time the engine itself may need to build a rule base, on top of the rules' own limit. */
    static final Duration ENGINE_GRACE = Duration.ofSeconds(10);
    /** The generated method holding one rule's model: {@code rule_<name with non-identifier characters as _>}. */
    private static final Pattern RULE_METHOD = Pattern.compile("^rule_(.+)$");

    private SiteKieBase() {
    }

    static KieBase build(RulePack pack, Duration ruleLimit, Callable<KieBase> build) throws RuleLoadException {
        Duration limit = ruleLimit == null || ruleLimit.isZero() || ruleLimit.isNegative() ? null : ruleLimit.plus(ENGINE_GRACE);
        try {
            return RuleCode.call("dlprof-lint-load-" + pack.id(), limit, build);
        } catch (RuleCode.Overrun o) {
            Located at = where(pack, o.stack());
            throw new RuleLoadException(at.origin(), at.line(), (at.rule() == null ? "pack " + pack.id() : "rule \"" + at.rule()
                    + "\" of pack " + pack.id()) + ": building the pack's rule base did not finish within " + seconds(limit)
                    + " (the rule time limit plus " + ENGINE_GRACE.toSeconds() + " s): a condition runs code when the pack loads (an"
                    + " eval(...) that uses no fact is evaluated once, at load) and did not return; raise --rule-timeout if it is"
                    + " merely slow");
        } catch (StackOverflowError | OutOfMemoryError e) {
            throw new RuleLoadException(pack.source(), 0, "pack " + pack.id() + ": building its rule base "
                    + (e instanceof StackOverflowError ? "overflowed the stack" : "ran out of memory") + " (its conditions run at load)");
        } catch (RuleLoadException e) {
            throw e;
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new RuleLoadException(pack.source(), 0, "pack " + pack.id() + ": cannot build its rule base: " + e);
        }
    }

    private record Located(String origin, int line, String rule) {
    }

    /** The rule whose model the stuck thread was building, else the pack's folder. */
    private static Located where(RulePack pack, StackTraceElement[] stack) {
        for (StackTraceElement e : stack) {
            Matcher m = RULE_METHOD.matcher(e.getMethodName());
            if (!m.matches()) continue;
            String wanted = identifier(m.group(1));
            for (PackFile f : pack.drlFiles()) {
                for (DrlOutline.RuleHeader h : DrlOutline.of(f).rules()) {
                    if (identifier(h.name()).equals(wanted)) return new Located(f.origin(), h.line(), h.name());
                }
            }
        }
        return new Located(pack.source(), 0, null);
    }

    private static String identifier(String name) {
        return name.replaceAll("[^A-Za-z0-9]", "_");
    }

    private static String seconds(Duration d) {
        return d == null ? "no limit" : d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
