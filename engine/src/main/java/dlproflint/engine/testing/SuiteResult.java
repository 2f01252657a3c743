package dlproflint.engine.testing;

import java.util.List;

/** All case results of a run of the harness, in pack, file and case order. */
public record SuiteResult(List<CaseResult> results) {
    public SuiteResult {
        results = List.copyOf(results);
    }

    public long passed() {
        return results.stream().filter(CaseResult::passed).count();
    }

    public long failed() {
        return results.size() - passed();
    }

    public boolean ok() {
        return failed() == 0 && !results.isEmpty();
    }

    /** Human-readable report: one line per case, failures explained, a total line last. */
    public String render() {
        StringBuilder sb = new StringBuilder();
        for (CaseResult r : results) {
            sb.append(r.passed() ? "PASS " : "FAIL ").append(r.displayName()).append('\n');
            if (!r.passed()) sb.append(r.failure().indent(5));
        }
        sb.append(results.size()).append(" cases: ").append(passed()).append(" passed, ").append(failed()).append(" failed");
        if (results.isEmpty()) sb.append(" (no *.cases.yaml found)");
        return sb.append('\n').toString();
    }
}
