package dlproflint.findings;

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
 * @param helpUri    link to the rule's help page
 * @param frameworks frameworks the rule applies to ({@code pytorch}, {@code tensorflow}, ...)
 * @param inputs     profile formats that can trigger it ({@code nsys-sqlite}, {@code dlprof-db}, {@code kineto})
 * @param params     declared thresholds with their documented defaults
 * @param helpMarkdown the rule's help page (its {@code .md} beside the {@code .drl}), or empty
 */
public record RuleMetadata(String id, String packId, String packVersion, String name, Severity severity,
                           String category, String since, String summary, String helpUri,
                           List<String> frameworks, List<String> inputs, Map<String, Double> params,
                           String helpMarkdown) {
}
