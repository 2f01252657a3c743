package dlproflint.engine;

import dlproflint.findings.Subject;
import dlproflint.findings.Evidence;
import dlproflint.findings.Impact;

import org.kie.api.runtime.rule.RuleContext;

import java.util.Map;

/**
 * The global {@code findings} every rule reports through:
 * <pre>
 * global dlproflint.engine.FindingSink findings;
 * ...
 * then
 *     findings.report(kcontext, Subject.profile(), "problem", "recommendation",
 *                     Evidence.of("gpuUtilizationPct", $u));
 * </pre>
 * Rule id, pack, severity, category and help link are taken from the rule's annotations, never repeated.
 */
public interface FindingSink {
    void report(RuleContext kcontext, Subject subject, String problem, String recommendation,
                Map<String, Object> evidence);

    /** Same, with a source location (e.g. {@code $op.location()}). */
    void report(RuleContext kcontext, Subject subject, String problem, String recommendation,
                Map<String, Object> evidence, dlproflint.facts.StackFrame location);

    /** Same, with what the problem costs ({@code Impact.fromTotal(...)}, {@code Impact.perStep(...)}). */
    void report(RuleContext kcontext, Subject subject, String problem, String recommendation,
                Map<String, Object> evidence, Impact impact);

    /** Same, with a source location and what the problem costs. */
    void report(RuleContext kcontext, Subject subject, String problem, String recommendation,
                Map<String, Object> evidence, dlproflint.facts.StackFrame location, Impact impact);
}
