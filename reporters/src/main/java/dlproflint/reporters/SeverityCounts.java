package dlproflint.reporters;

import dlproflint.findings.Finding;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;

import java.util.Collection;

/** Findings per severity, plus the number hidden by suppressions or the baseline. */
public record SeverityCounts(int error, int warning, int note, int suppressed) {
    public static final SeverityCounts ZERO = new SeverityCounts(0, 0, 0, 0);

    public static SeverityCounts of(ProfileResult r) {
        int e = 0, w = 0, n = 0;
        for (Finding f : r.findings()) {
            Severity s = f.severity() == null ? Severity.WARNING : f.severity();
            switch (s) {
                case ERROR -> e++;
                case WARNING -> w++;
                case NOTE -> n++;
            }
        }
        return new SeverityCounts(e, w, n, r.suppressed() == null ? 0 : r.suppressed().size());
    }

    public static SeverityCounts total(Collection<ProfileResult> results) {
        SeverityCounts t = ZERO;
        for (ProfileResult r : results) t = t.plus(of(r));
        return t;
    }

    public SeverityCounts plus(SeverityCounts o) {
        return new SeverityCounts(error + o.error, warning + o.warning, note + o.note, suppressed + o.suppressed);
    }

    public int findings() {
        return error + warning + note;
    }
}
