package dlproflint.engine;

import dlproflint.facts.StackFrame;
import dlproflint.findings.Evidence;
import dlproflint.findings.Impact;
import dlproflint.findings.Message;
import dlproflint.findings.Subject;

import org.kie.api.runtime.rule.RuleContext;

import java.util.Map;

/**
 * The global {@code findings} every rule reports through:
 * <pre>
 * global dlproflint.engine.FindingSink findings;
 * ...
 * rule "gpu-idle"
 *     &#64;messages({"low = GPU utilization {gpuUtilizationPct:pct}, under {min:num}%"})
 *     &#64;evidence({"gpuUtilizationPct: percent"})
 *     ...
 * then
 *     findings.report(kcontext, Subject.profile(), Message.of("low", "min", $min), "recommendation",
 *                     Evidence.of("gpuUtilizationPct", $u));
 * </pre>
 * The problem is the declared message of that id, its placeholders filled from the message's data and, for names the
 * data lacks, from the evidence. Rule id, pack, severity, category and help link are taken from the rule's
 * annotations, never repeated.
 */
public interface FindingSink {
    void report(RuleContext kcontext, Subject subject, Message message, String recommendation,
                Map<String, Object> evidence);

    /** Same, with a source location (e.g. {@code $op.location()}). */
    void report(RuleContext kcontext, Subject subject, Message message, String recommendation,
                Map<String, Object> evidence, StackFrame location);

    /** Same, with what the problem costs ({@code Impact.fromTotal(...)}, {@code Impact.perStep(...)}). */
    void report(RuleContext kcontext, Subject subject, Message message, String recommendation,
                Map<String, Object> evidence, Impact impact);

    /** Same, with a source location and what the problem costs. */
    void report(RuleContext kcontext, Subject subject, Message message, String recommendation,
                Map<String, Object> evidence, StackFrame location, Impact impact);
}
