package dlproflint.engine.catalog;

import dlproflint.findings.RuleMetadata;
import dlproflint.engine.pack.PackFile;

/**
 * A compiled rule as the engine tracks it.
 *
 * @param packageName DRL package, with {@code ruleName} the rule's identity inside the KieBase
 * @param derive      {@code @kind("derive")}: a helper rule that inserts derived facts, never filtered
 * @param metadata    its catalogue entry (for derive rules: only id and params are meaningful)
 * @param drl         the file that declares it, {@code line} its rule header
 */
public record LoadedRule(String packageName, String ruleName, boolean derive, RuleMetadata metadata,
                         PackFile drl, int line) {
    public String id() {
        return metadata.id();
    }

    /** Key of the rule in the KieBase. */
    public String key() {
        return key(packageName, ruleName);
    }

    public static String key(String packageName, String ruleName) {
        return packageName + "\u0000" + ruleName;
    }
}
