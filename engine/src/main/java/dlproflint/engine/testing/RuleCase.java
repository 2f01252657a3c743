package dlproflint.engine.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.engine.Budget;

import java.util.List;
import java.util.Map;

/**
 * One case of a {@code *.cases.yaml} file.
 *
 * @param line   1-based line of the case in its file (for failure messages)
 * @param params parameter overrides for the file's rule
 * @param budgets the case's budgets (as the configuration's {@code budgets:})
 * @param facts  the partial ProfileFacts document, materialised by {@link FactsYaml} when the case runs
 * @param expect the exact multiset of findings; empty = a negative case
 */
public record RuleCase(String name, int line, Map<String, Object> params, List<Budget> budgets, JsonNode facts,
                       List<Expectation> expect) {
    /** A positive case expects at least one finding of {@code ruleId}. */
    public boolean positiveFor(String ruleId) {
        return expect.stream().anyMatch(e -> e.rule().equals(ruleId) && e.count() > 0);
    }
}
