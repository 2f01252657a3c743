package dlproflint.engine.testing;

import dlproflint.findings.Finding;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One line of a case's {@code expect:} list: {@code count} findings of {@code rule}; when any of {@code messageId},
 * {@code data}, {@code messageContains}, {@code subject}, {@code severity}, {@code evidence} or {@code impact} is set, at
 * least {@code count} of that rule's findings match all of them: the message id equals {@code messageId} and each
 * {@code data} entry equals the message's data (as ESLint's RuleTester asserts {@code messageId} and {@code data}), the
 * problem or recommendation text contains {@code messageContains}, the
 * subject's {@code kind:key} reference equals {@code subject}, the severity label equals {@code severity}, and each
 * evidence entry equals the expected value (numbers within a relative 1e-9, anything else by its text), and the
 * impact matches {@link ImpactExpectation}.
 */
public record Expectation(String rule, int count, String messageId, Map<String, Object> data, String messageContains,
                          String subject, String severity, Map<String, Object> evidence, ImpactExpectation impact) {
    public Expectation {
        data = data == null ? Map.of() : Map.copyOf(data);
        evidence = evidence == null ? Map.of() : Map.copyOf(evidence);
    }

    public Expectation(String rule, int count, String messageContains, String subject, String severity,
                       Map<String, Object> evidence) {
        this(rule, count, null, null, messageContains, subject, severity, evidence, null);
    }

    /** Whether the expectation constrains more than the number of findings. */
    boolean constrains() {
        return messageId != null || !data.isEmpty() || messageContains != null || subject != null || severity != null
                || !evidence.isEmpty() || impact != null;
    }

    /** Why {@code f} does not match, or an empty list when it does. */
    List<String> mismatches(Finding f) {
        List<String> out = new ArrayList<>();
        if (messageId != null && !messageId.equals(f.messageId())) out.add("messageId is " + f.messageId());
        for (Map.Entry<String, Object> e : data.entrySet()) {
            Object actual = f.data().get(e.getKey());
            if (!same(e.getValue(), actual)) out.add("data " + e.getKey() + " is " + actual);
        }
        if (messageContains != null && !(f.problem() + "\n" + f.recommendation()).contains(messageContains)) {
            out.add("message does not contain \"" + messageContains + "\"");
        }
        if (subject != null && !subject.equals(f.subject().ref())) out.add("subject is " + f.subject().ref());
        if (severity != null && !severity.equalsIgnoreCase(f.severity().label())) out.add("severity is " + f.severity().label());
        for (Map.Entry<String, Object> e : evidence.entrySet()) {
            Object actual = f.evidence().get(e.getKey());
            if (!same(e.getValue(), actual)) out.add("evidence " + e.getKey() + " is " + actual);
        }
        if (impact != null) out.addAll(impact.mismatches(f.impact()));
        return out;
    }

    private static boolean same(Object expected, Object actual) {
        if (expected instanceof Number x && actual instanceof Number y) {
            double a = x.doubleValue();
            double b = y.doubleValue();
            return a == b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
        }
        if (actual instanceof java.util.Collection<?> c && !(expected instanceof java.util.Collection<?>)) {
            // a list in YAML arrives as its JSON text
            return String.valueOf(expected).replace("\"", "").replace(" ", "")
                    .equals(c.stream().map(String::valueOf).toList().toString().replace(" ", ""));
        }
        return actual != null && String.valueOf(expected).equals(String.valueOf(actual));
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(count + " x " + rule);
        List<String> parts = new ArrayList<>();
        if (messageId != null) parts.add("messageId " + messageId);
        if (!data.isEmpty()) parts.add("data " + data);
        if (messageContains != null) parts.add("message containing \"" + messageContains + "\"");
        if (subject != null) parts.add("subject " + subject);
        if (severity != null) parts.add("severity " + severity);
        if (!evidence.isEmpty()) parts.add("evidence " + evidence);
        if (impact != null) parts.add(impact.toString());
        if (!parts.isEmpty()) b.append(" (").append(String.join(", ", parts)).append(")");
        return b.toString();
    }
}
