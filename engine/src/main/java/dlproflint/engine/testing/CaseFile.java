package dlproflint.engine.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dlproflint.engine.Budget;
import dlproflint.engine.RuleLoadException;
import dlproflint.engine.pack.PackFile;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed {@code <rule>.cases.yaml}:
 * <pre>
 * rule: acme/fp16-not-bf16
 * cases:
 *   - name: fp16 tensor-core kernel is flagged
 *     params: {minFp16Kernels: 1}        # optional overrides of the rule's @params
 *     budgets: {step-time: {max: 250}}  # optional budgets, as in .dlprof-lint.yml
 *     facts:                             # partial ProfileFacts (see FactsYaml)
 *       kernels:
 *         - {name: volta_fp16_s884gemm_fp16_128x128_nn, usesTc: true, gpuTime: 5000}
 *     expect:                            # exact multiset of findings; [] = negative case
 *       - {messageId: fp16-share, data: {fp16Kernels: 3}, messageContains: "fp16"}
 *       - {subject: "op:CONV2D_1", severity: warning, evidence: {fp16Kernels: 3},
 *          impact: {basis: step, sharePct: 18.0}}   # or impact: none
 * </pre>
 * {@code count} defaults to 1 and {@code rule} to the file's rule.
 */
public record CaseFile(PackFile file, String rule, List<RuleCase> cases) {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Set<String> TOP = Set.of("rule", "cases");
    private static final Set<String> CASE = Set.of("name", "params", "budgets", "facts", "expect");
    private static final Set<String> EXPECT = Set.of("rule", "count", "messageId", "data", "messageContains", "subject", "severity",
            "evidence", "impact");

    public static CaseFile parse(PackFile file) throws RuleLoadException {
        JsonNode root;
        try {
            root = YAML.readTree(file.content());
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new RuleLoadException(file.origin(), line, "bad cases file: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new RuleLoadException(file.origin(), 0, "cannot read cases file: " + e.getMessage());
        }
        String text = file.text();
        if (root == null || !root.isObject()) throw new RuleLoadException(file.origin(), 1, "a cases file is a mapping with 'rule' and 'cases'");
        keys(file, root, TOP, "top level", 1);
        String rule = text(root, "rule");
        if (rule == null) throw new RuleLoadException(file.origin(), 1, "cases file lacks 'rule: <rule id>'");
        JsonNode cases = root.get("cases");
        if (cases == null || !cases.isArray() || cases.isEmpty()) {
            throw new RuleLoadException(file.origin(), lineOf(text, "cases:", 0), "cases file needs a non-empty 'cases:' list");
        }
        List<RuleCase> out = new ArrayList<>();
        int searchFrom = 0;
        for (int i = 0; i < cases.size(); i++) {
            JsonNode c = cases.get(i);
            String name = c.isObject() ? text(c, "name") : null;
            int line = name == null ? 0 : lineOf(text, name, searchFrom);
            if (line > 0) searchFrom = line;
            if (name == null) throw new RuleLoadException(file.origin(), line, "case " + (i + 1) + " lacks 'name'");
            keys(file, c, CASE, "case \"" + name + "\"", line);
            JsonNode expect = c.get("expect");
            if (expect == null || !expect.isArray()) {
                throw new RuleLoadException(file.origin(), line, "case \"" + name + "\" needs 'expect:' (a list; [] for a negative case)");
            }
            List<Expectation> ex = new ArrayList<>();
            for (JsonNode e : expect) {
                if (!e.isObject()) throw new RuleLoadException(file.origin(), line, "case \"" + name + "\": each expect entry is {rule, count, messageContains, subject, severity, evidence}");
                keys(file, e, EXPECT, "case \"" + name + "\" expect entry", line);
                String r = text(e, "rule");
                int count = e.has("count") ? e.get("count").asInt(-1) : 1;
                if (count < 0) throw new RuleLoadException(file.origin(), line, "case \"" + name + "\": count must be a number >= 0");
                ex.add(new Expectation(r == null ? rule : r, count, text(e, "messageId"), values(file, e, "data", name, line),
                        text(e, "messageContains"), text(e, "subject"), text(e, "severity"),
                        values(file, e, "evidence", name, line), impact(file, e.get("impact"), name, line)));
            }
            Map<String, Object> params = new LinkedHashMap<>();
            JsonNode p = c.get("params");
            if (p != null && !p.isNull()) {
                if (!p.isObject()) throw new RuleLoadException(file.origin(), line, "case \"" + name + "\": params is a mapping name: value");
                for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> en = it.next();
                    JsonNode v = en.getValue();
                    if (v.isNumber()) {
                        params.put(en.getKey(), v.asDouble());
                    } else if (v.isArray()) {
                        List<String> names = new ArrayList<>();
                        v.forEach(x -> names.add(x.asText()));
                        params.put(en.getKey(), names);
                    } else {
                        throw new RuleLoadException(file.origin(), line, "case \"" + name + "\": param " + en.getKey() + " must be a number or a list");
                    }
                }
            }
            out.add(new RuleCase(name, line, Map.copyOf(params), budgets(file, c.get("budgets"), name, line), c.get("facts"),
                    List.copyOf(ex)));
        }
        return new CaseFile(file, rule, List.copyOf(out));
    }

    /** {@code evidence: {key: value}} or {@code data: {name: value}}: numbers as numbers, anything else as its text. */
    private static Map<String, Object> values(PackFile file, JsonNode e, String key, String name, int line) throws RuleLoadException {
        JsonNode n = e.get(key);
        Map<String, Object> out = new LinkedHashMap<>();
        if (n == null || n.isNull()) return out;
        if (!n.isObject()) throw new RuleLoadException(file.origin(), line, "case \"" + name + "\": " + key + " is a mapping {name: expected value}");
        n.fields().forEachRemaining(x -> out.put(x.getKey(), x.getValue().isNumber() ? x.getValue().numberValue()
                : x.getValue().isArray() ? x.getValue().toString() : x.getValue().asText()));
        return out;
    }

    /** {@code impact: none} or {@code impact: {basis: step, sharePct: 18.0, ...}}; null when absent. */
    private static ImpactExpectation impact(PackFile file, JsonNode n, String name, int line) throws RuleLoadException {
        if (n == null || n.isNull()) return null;
        if (n.isTextual() && n.asText().equals("none")) return ImpactExpectation.NONE;
        String usage = "case \"" + name + "\": impact is 'none' or a mapping of " + String.join(", ", ImpactExpectation.KEYS);
        if (!n.isObject()) throw new RuleLoadException(file.origin(), line, usage);
        keys(file, n, Set.copyOf(ImpactExpectation.KEYS), "case \"" + name + "\" impact", line);
        String basis = text(n, "basis");
        if (basis != null && !basis.equals("step") && !basis.equals("run")) {
            throw new RuleLoadException(file.origin(), line, "case \"" + name + "\": impact basis is 'step' or 'run', not '" + basis + "'");
        }
        Double[] nums = new Double[5];
        String[] numKeys = {"sharePct", "savingPct", "lostNs", "savingNs", "periodNs"};
        for (int i = 0; i < numKeys.length; i++) {
            JsonNode v = n.get(numKeys[i]);
            if (v == null || v.isNull()) continue;
            if (!v.isNumber()) throw new RuleLoadException(file.origin(), line, "case \"" + name + "\": impact " + numKeys[i] + " must be a number");
            nums[i] = v.asDouble();
        }
        return new ImpactExpectation(false, basis, nums[0], nums[1], nums[2], nums[3], nums[4], text(n, "modelContains"));
    }

    /** {@code budgets: {metric: {min: x, max: y}}}, as in the configuration file. */
    private static List<Budget> budgets(PackFile file, JsonNode n, String name, int line) throws RuleLoadException {
        if (n == null || n.isNull()) return List.of();
        String where = "case \"" + name + "\": budgets";
        if (!n.isObject()) throw new RuleLoadException(file.origin(), line, where + " is a mapping metric: {min, max}");
        List<Budget> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> b = it.next();
            JsonNode bounds = b.getValue();
            if (!bounds.isObject()) throw new RuleLoadException(file.origin(), line, where + "." + b.getKey() + " is a mapping {min, max}");
            keys(file, bounds, Set.of("min", "max"), where + "." + b.getKey(), line);
            Double[] mm = new Double[2];
            String[] k = {"min", "max"};
            for (int i = 0; i < 2; i++) {
                JsonNode v = bounds.get(k[i]);
                if (v == null || v.isNull()) continue;
                if (!v.isNumber()) throw new RuleLoadException(file.origin(), line, where + "." + b.getKey() + "." + k[i] + " must be a number");
                mm[i] = v.asDouble();
            }
            try {
                out.add(Budget.fromConfig(b.getKey(), mm[0], mm[1], file.origin() + ":" + line));
            } catch (IllegalArgumentException e) {
                throw new RuleLoadException(file.origin(), line, where + ": " + e.getMessage());
            }
        }
        return List.copyOf(out);
    }

    private static void keys(PackFile file, JsonNode node, Set<String> allowed, String where, int line) throws RuleLoadException {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw new RuleLoadException(file.origin(), line, where + ": unknown key '" + k + "' (allowed: "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
    }

    private static String text(JsonNode n, String key) {
        JsonNode v = n.get(key);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static int lineOf(String text, String needle, int fromLine) {
        String[] lines = text.split("\n", -1);
        for (int i = fromLine; i < lines.length; i++) {
            if (lines[i].contains(needle)) return i + 1;
        }
        return 0;
    }
}
