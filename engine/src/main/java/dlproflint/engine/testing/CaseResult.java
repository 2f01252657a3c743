package dlproflint.engine.testing;

import dlproflint.findings.Finding;

import java.util.List;

/**
 * The outcome of one case (or of a cases file that could not be read: then {@code caseName} is
 * null and {@code failure} says why).
 *
 * @param location {@code file:line} of the case
 * @param failure  null when passed; otherwise a readable explanation that lists the actual findings
 */
public record CaseResult(String packId, String ruleId, String location, String caseName, String failure,
                         List<Finding> actual) {
    public boolean passed() {
        return failure == null;
    }

    /** A name for test reports: {@code rule > case}. */
    public String displayName() {
        return (ruleId == null ? location : ruleId) + (caseName == null ? "" : " > " + caseName);
    }
}
