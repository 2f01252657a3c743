package dlproflint.findings;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rule's catalogue entry, read from its DRL annotations (the only source of truth).
 *
 * @param id         stable id, {@code <pack>/<name>}, e.g. {@code dlprof/amp-not-used}
 * @param name       short title
 * @param severity   default severity (configuration may override per run)
 * @param category   e.g. {@code precision}, {@code input-pipeline}, {@code utilization}
 * @param since      pack version that introduced the rule
 * @param summary    one sentence (SARIF shortDescription)
 * @param helpUri    link to the rule's help page, derived from the id by the pack's {@code helpUri} template; null when the pack has none
 * @param frameworks frameworks the rule applies to ({@code pytorch}, {@code tensorflow}, ...)
 * @param inputs     profile formats that can trigger it ({@code nsys-sqlite}, {@code dlprof-db}, {@code kineto})
 * @param params     declared parameters (thresholds) with their defaults and descriptions, in declaration order
 * @param helpMarkdown the rule's help page (its {@code .md} beside the {@code .drl}), or empty
 * @param severityFixed true when the rule's findings keep its declared severity even when they carry an
 *                   {@link Impact} ({@code @severityFrom("declared")}): rules that judge against a tolerance the user
 *                   chose (a regression beyond it fails the build, however small the step share)
 * @param messages   the messages its findings say ({@code @messages}), by id, in declaration order
 * @param evidence   the evidence keys its findings carry ({@code @evidence}), with their types; empty when the rule
 *                   declares none (its evidence is then not checked)
 */
public record RuleMetadata(String id, String packId, String packVersion, String name, Severity severity,
                           String category, String since, String summary, String helpUri,
                           List<String> frameworks, List<String> inputs, List<ParamSpec> params,
                           String helpMarkdown, boolean severityFixed, List<MessageSpec> messages,
                           List<EvidenceKey> evidence) implements java.io.Serializable {
    public RuleMetadata {
        params = params == null ? List.of() : List.copyOf(params);
        messages = messages == null ? List.of() : List.copyOf(messages);
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
    }

    /** Without declared messages and evidence keys. */
    public RuleMetadata(String id, String packId, String packVersion, String name, Severity severity,
                        String category, String since, String summary, String helpUri,
                        List<String> frameworks, List<String> inputs, List<ParamSpec> params,
                        String helpMarkdown, boolean severityFixed) {
        this(id, packId, packVersion, name, severity, category, since, summary, helpUri, frameworks, inputs, params,
                helpMarkdown, severityFixed, List.of(), List.of());
    }

    /** A rule whose findings take their severity from what they cost (the default). */
    public RuleMetadata(String id, String packId, String packVersion, String name, Severity severity,
                        String category, String since, String summary, String helpUri,
                        List<String> frameworks, List<String> inputs, List<ParamSpec> params, String helpMarkdown) {
        this(id, packId, packVersion, name, severity, category, since, summary, helpUri, frameworks, inputs, params,
                helpMarkdown, false);
    }

    /** Parameter name -> default value (a number, or a list of names), in declaration order. */
    public Map<String, Object> paramDefaults() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (ParamSpec p : params) m.put(p.name(), p.defaultObject());
        return Collections.unmodifiableMap(m);
    }

    /** The declared message of this id. */
    public java.util.Optional<MessageSpec> message(String messageId) {
        return messages.stream().filter(m -> m.id().equals(messageId)).findFirst();
    }

    /** The rule's own part of its id ({@code amp-not-used} of {@code dlprof/amp-not-used}). */
    public String shortName() {
        return id.substring(id.indexOf('/') + 1);
    }
}
