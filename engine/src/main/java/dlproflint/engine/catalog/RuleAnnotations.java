package dlproflint.engine.catalog;

import java.util.Map;
import java.util.TreeMap;

/**
 * One compiled rule's identity and DRL annotations as strings, exactly as Drools read them. This is all
 * {@link RuleCatalog} needs to build the rule's catalogue entry, so it can be stored beside a compiled
 * pack ({@link CatalogFile}) and the catalogue read back without loading the rule engine.
 */
public record RuleAnnotations(String packageName, String ruleName, Map<String, String> values) {
    public RuleAnnotations {
        values = Map.copyOf(values);
    }

    static RuleAnnotations of(String packageName, String ruleName, Map<String, Object> metaData) {
        Map<String, String> v = new TreeMap<>();
        metaData.forEach((k, o) -> {
            if (o != null) v.put(k, o.toString());
        });
        return new RuleAnnotations(packageName, ruleName, v);
    }
}
