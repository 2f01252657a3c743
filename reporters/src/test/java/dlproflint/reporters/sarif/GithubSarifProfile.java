package dlproflint.reporters.sarif;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What GitHub code scanning requires of an upload beyond the SARIF schema
 * (shared/reference/linter-anchors.md §4; GitHub docs "SARIF support for code scanning"):
 * the schema allows a result without locations, GitHub rejects the whole file for it.
 */
final class GithubSarifProfile {
    private static final Set<String> LEVELS = Set.of("error", "warning", "note", "none");
    private static final Set<String> PRECISIONS = Set.of("very-high", "high", "medium", "low");

    private GithubSarifProfile() {
    }

    /** Every violation found, as readable lines; empty when the log is acceptable. */
    static List<String> violations(JsonNode log) {
        List<String> v = new ArrayList<>();
        if (!log.path("$schema").isTextual()) v.add("$schema is missing");
        if (!"2.1.0".equals(log.path("version").asText())) v.add("version is not 2.1.0");
        JsonNode runs = log.path("runs");
        if (!runs.isArray()) v.add("runs is not an array");
        if (runs.size() > GithubLimits.MAX_RUNS) v.add("more than 20 runs");
        Set<String> categories = new HashSet<>();
        for (int r = 0; r < runs.size(); r++) {
            JsonNode run = runs.get(r);
            String at = "runs[" + r + "]";
            JsonNode driver = run.path("tool").path("driver");
            if (driver.path("name").asText().isEmpty()) v.add(at + ": tool.driver.name is missing");
            if (!run.path("results").isArray()) v.add(at + ": results is missing");
            String id = run.path("automationDetails").path("id").asText("");
            if (!id.contains("/")) v.add(at + ": automationDetails.id '" + id + "' has no '/', so no category");
            if (!categories.add(id.substring(0, Math.max(0, id.lastIndexOf('/'))))) {
                v.add(at + ": category of '" + id + "' repeats another run's");
            }
            Map<String, Integer> ruleIndex = new HashMap<>();
            JsonNode rules = driver.path("rules");
            if (!rules.isArray()) v.add(at + ": tool.driver.rules is missing");
            for (int i = 0; i < rules.size(); i++) {
                JsonNode rule = rules.get(i);
                String rat = at + ".rules[" + i + "] " + rule.path("id").asText();
                if (ruleIndex.put(rule.path("id").asText(), i) != null) v.add(rat + ": duplicate id");
                text(v, rat + ".name", rule.path("name"), GithubLimits.MAX_NAME);
                text(v, rat + ".shortDescription.text", rule.path("shortDescription").path("text"), 1024);
                text(v, rat + ".fullDescription.text", rule.path("fullDescription").path("text"), 1024);
                text(v, rat + ".help.text", rule.path("help").path("text"), 1024);
                if (rule.path("help").path("markdown").asText().isBlank()) v.add(rat + ": help.markdown is empty");
                JsonNode props = rule.path("properties");
                if (props.path("tags").size() > GithubLimits.MAX_TAGS) v.add(rat + ": more than 10 tags");
                for (JsonNode tag : props.path("tags")) {
                    if (tag.asText().equalsIgnoreCase("security")) v.add(rat + ": tagged security");
                }
                if (props.has("security-severity")) v.add(rat + ": security-severity makes it a security rule");
                if (!PRECISIONS.contains(props.path("precision").asText())) v.add(rat + ": bad precision");
                if (!LEVELS.contains(rule.path("defaultConfiguration").path("level").asText("warning"))) {
                    v.add(rat + ": bad default level");
                }
            }
            JsonNode results = run.path("results");
            if (results.size() > GithubLimits.MAX_RESULTS_PER_RUN) v.add(at + ": more than 25000 results");
            for (int i = 0; i < results.size(); i++) {
                result(v, at + ".results[" + i + "]", results.get(i), ruleIndex);
            }
        }
        return v;
    }

    private static void result(List<String> v, String at, JsonNode res, Map<String, Integer> ruleIndex) {
        String ruleId = res.path("ruleId").asText("");
        if (!ruleIndex.containsKey(ruleId)) v.add(at + ": ruleId '" + ruleId + "' is not in tool.driver.rules");
        else if (res.has("ruleIndex") && res.path("ruleIndex").asInt() != ruleIndex.get(ruleId)) {
            v.add(at + ": ruleIndex does not point at " + ruleId);
        }
        if (!LEVELS.contains(res.path("level").asText("warning"))) v.add(at + ": bad level");
        if (res.path("message").path("text").asText().isBlank()) v.add(at + ": message.text is empty");
        JsonNode locations = res.path("locations");
        if (locations.size() == 0) {
            v.add(at + ": no locations (GitHub rejects the whole upload)");
        } else {
            JsonNode physical = locations.get(0).path("physicalLocation");
            String uri = physical.path("artifactLocation").path("uri").asText("");
            if (uri.isEmpty()) v.add(at + ": locations[0].physicalLocation.artifactLocation.uri is missing");
            else if (uri.startsWith("/") || isAbsoluteUri(uri)) v.add(at + ": uri '" + uri + "' is not repo-relative");
            if (physical.path("region").path("startLine").asInt(0) < 1) v.add(at + ": region.startLine < 1");
        }
        if (locations.size() > 1000) v.add(at + ": more than 1000 locations");
        if (res.path("partialFingerprints").path("primaryLocationLineHash").asText().isEmpty()) {
            v.add(at + ": partialFingerprints.primaryLocationLineHash is missing");
        }
    }

    private static boolean isAbsoluteUri(String uri) {
        try {
            return URI.create(uri).isAbsolute();
        } catch (IllegalArgumentException e) {
            return true; // unparseable counts as unusable
        }
    }

    private static void text(List<String> v, String what, JsonNode node, int max) {
        String s = node.asText("");
        if (s.isBlank()) v.add(what + " is empty");
        if (s.length() > max) v.add(what + " is longer than " + max);
    }
}
