package dlproflint.cli;

import dlproflint.findings.Finding;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;

import java.util.List;

/** {@code --fail-on}: the lowest severity that makes the run fail (exit 1); {@code none} never fails. */
public enum FailOn {
    ERROR(Severity.ERROR), WARNING(Severity.WARNING), NOTE(Severity.NOTE), NONE(null);

    private final Severity threshold;

    FailOn(Severity threshold) {
        this.threshold = threshold;
    }

    /** The lowest failing severity, or null for {@code none}. */
    public Severity threshold() {
        return threshold;
    }

    public boolean fails(List<ProfileResult> results) {
        if (threshold == null) return false;
        for (ProfileResult r : results) {
            for (Finding f : r.findings()) {
                if (f.severity().atLeast(threshold)) return true;
            }
        }
        return false;
    }
}
