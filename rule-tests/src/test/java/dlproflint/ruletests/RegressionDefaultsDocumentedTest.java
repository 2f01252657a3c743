package dlproflint.ruletests;

import dlproflint.findings.RuleMetadata;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * docs/cli.md summarises compare's default tolerances in a table; the defaults themselves live in the regression
 * rules' {@code @params}. Every default must appear in its rule's row, so the summary cannot drift from the rules.
 */
class RegressionDefaultsDocumentedTest {
    @Test
    void everyDefaultToleranceIsInTheCliTable() throws Exception {
        List<String> rows = Files.readAllLines(AllPacks.repo().resolve("docs/cli.md")).stream()
                .filter(l -> l.startsWith("| `regression/")).toList();
        List<String> problems = new ArrayList<>();
        int rules = 0;
        for (RuleMetadata r : AllPacks.engine().rules()) {
            if (!r.id().startsWith("regression/") || r.paramDefaults().isEmpty()) continue;
            rules++;
            String row = rows.stream().filter(l -> l.contains("`" + r.id() + "`")).findFirst().orElse(null);
            if (row == null) {
                problems.add(r.id() + ": no row");
                continue;
            }
            Set<String> numbers = new HashSet<>();
            Matcher m = Pattern.compile("\\d+(\\.\\d+)?").matcher(row.substring(row.indexOf("| ", 2)));
            while (m.find()) numbers.add(m.group());
            r.params().forEach(p -> {
                String name = p.name();
                double value = p.defaultValue();
                String v = value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
                if (!numbers.contains(v)) problems.add(r.id() + ": " + name + " = " + v + " not in \"" + row + "\"");
            });
        }
        assertEquals(9, rules, "regression rules with parameters");
        assertEquals(List.of(), problems);
    }
}
