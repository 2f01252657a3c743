package dlproflint.findings;

import java.util.List;

/**
 * Everything a reporter needs: the tool, the packs and rules that ran, and each profile's result
 * in a deterministic order (the order the profiles were given).
 */
public record LintRun(String toolVersion, List<PackInfo> packs, List<RuleMetadata> rules,
                      List<ProfileResult> results) {
}
