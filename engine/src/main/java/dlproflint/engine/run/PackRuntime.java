package dlproflint.engine.run;

import dlproflint.engine.catalog.LoadedRule;
import dlproflint.engine.compile.CompiledPack;
import org.kie.api.definition.KiePackage;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** A compiled pack with its rules indexed by their KieBase identity. Immutable, shared by all runs. */
public record PackRuntime(CompiledPack compiled, List<LoadedRule> rules, Map<String, LoadedRule> byKey,
                          boolean hasFindingsGlobal) {
    public static final String GLOBAL = "findings";

    public static PackRuntime of(CompiledPack compiled, List<LoadedRule> rules) {
        Map<String, LoadedRule> byKey = rules.stream().collect(Collectors.toUnmodifiableMap(LoadedRule::key, Function.identity()));
        boolean global = false;
        for (KiePackage p : compiled.kieBase().getKiePackages()) {
            global |= p.getGlobalVariables().stream().anyMatch(g -> g.getName().equals(GLOBAL));
        }
        return new PackRuntime(compiled, List.copyOf(rules), byKey, global);
    }

    public LoadedRule rule(String packageName, String ruleName) {
        return byKey.get(LoadedRule.key(packageName, ruleName));
    }
}
