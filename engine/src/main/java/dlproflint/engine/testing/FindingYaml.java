package dlproflint.engine.testing;

import dlproflint.findings.Finding;

import java.util.Map;
import java.util.stream.Collectors;

/** A finding as a YAML flow mapping, for failure messages that can be pasted into {@code expect:}. */
final class FindingYaml {
    private FindingYaml() {
    }

    static String render(Finding f) {
        String evidence = f.evidence().entrySet().stream().map(FindingYaml::entry).collect(Collectors.joining(", "));
        String data = f.data().entrySet().stream().map(FindingYaml::entry).collect(Collectors.joining(", "));
        return "- {rule: " + f.ruleId() + ", severity: " + f.severity().label() + ", subject: " + quote(f.subject().ref())
                + ",\n   messageId: " + f.messageId() + ", data: {" + data + "}"
                + ",\n   problem: " + quote(f.problem())
                + ",\n   recommendation: " + quote(f.recommendation())
                + ",\n   evidence: {" + evidence + "}"
                + ",\n   impact: " + (f.impact() == null ? "none" : ImpactExpectation.text(f.impact()))
                + (f.location() == null ? "" : ", location: " + quote(f.location().toString())) + "}";
    }

    private static String entry(Map.Entry<String, Object> e) {
        Object v = e.getValue();
        if (v instanceof java.util.Collection<?> c) {
            return e.getKey() + ": [" + c.stream().map(x -> x instanceof Number ? x.toString() : quote(String.valueOf(x)))
                    .collect(Collectors.joining(", ")) + "]";
        }
        return e.getKey() + ": " + (v instanceof Number || v instanceof Boolean ? v.toString() : quote(String.valueOf(v)));
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
