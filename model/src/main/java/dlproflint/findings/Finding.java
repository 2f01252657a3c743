package dlproflint.findings;

import dlproflint.facts.StackFrame;

import java.util.Map;

/**
 * One problem found in one profile.
 *
 * @param evidence    the measured numbers behind the message, in a stable key order
 * @param location    a Python source location from the op's stack trace, or null
 * @param profilePath the profile the finding belongs to
 * @param fingerprint stable across runs: rule id + subject (no measurements); used by baselines and SARIF
 * @param impact      what the problem costs, as the rule estimated it; null when the rule measures no cost
 * @param messageId   the id of the rule's declared message that {@code problem} renders ({@code @messages}); null for
 *                    findings not made by a rule's message (folded job findings keep their ranks' id)
 * @param data        the values of the message's placeholders, by name, in the order the template uses them
 */
public record Finding(String ruleId, String packId, String packVersion, Severity severity,
                      String category, String problem, String recommendation,
                      Map<String, Object> evidence, Subject subject, StackFrame location,
                      String helpUri, String profilePath, String fingerprint, Impact impact,
                      String messageId, Map<String, Object> data)
        implements java.io.Serializable {
    public Finding {
        data = data == null ? Map.of() : data;
    }

    /** A finding without a message id. */
    public Finding(String ruleId, String packId, String packVersion, Severity severity,
                   String category, String problem, String recommendation,
                   Map<String, Object> evidence, Subject subject, StackFrame location,
                   String helpUri, String profilePath, String fingerprint, Impact impact) {
        this(ruleId, packId, packVersion, severity, category, problem, recommendation, evidence, subject, location,
                helpUri, profilePath, fingerprint, impact, null, Map.of());
    }

    /** The same finding pointing at another source line. */
    public Finding withLocation(StackFrame where) {
        return new Finding(ruleId, packId, packVersion, severity, category, problem, recommendation, evidence, subject,
                where, helpUri, profilePath, fingerprint, impact, messageId, data);
    }
}
