package dlproflint.findings;

import java.util.Locale;

/**
 * How a finding's severity follows from what its problem costs: {@code error} when a fix recovers {@code errorPct}
 * of the step (or of the analysed range) or more ({@link Impact#savingPct()}), {@code warning} from
 * {@code warningPct}, {@code note} below. The defaults are
 * those of {@link #DEFAULT}; a configuration may change them for every rule or for one rule, or pin a rule's
 * severity instead. A finding without a measured {@link Impact} keeps its rule's declared severity.
 *
 * @param errorPct   share of the step a fix recovers (0..100) at or above which a finding is an error
 * @param warningPct share at or above which it is a warning (at most {@code errorPct})
 */
public record SeverityThresholds(double errorPct, double warningPct) implements java.io.Serializable {
    /**
     * Error from 20% of the step, warning from 5%. A fifth of every step is what an input-pipeline, synchronisation
     * or copy fix typically recovers in one change, and more than run-to-run noise can explain (steady-state steps
     * of a training loop vary by a few percent); 5% is where a fix is still worth a change of the training script,
     * below it a finding is a note to read, never a reason to fail a build.
     */
    public static final SeverityThresholds DEFAULT = new SeverityThresholds(20, 5);

    public SeverityThresholds {
        check("error", errorPct);
        check("warning", warningPct);
        if (warningPct > errorPct) {
            throw new IllegalArgumentException("the warning threshold (" + Units.num(warningPct)
                    + "%) is above the error threshold (" + Units.num(errorPct) + "%)");
        }
    }

    private static void check(String name, double pct) {
        if (!Double.isFinite(pct) || pct < 0 || pct > 100) {
            throw new IllegalArgumentException("the " + name + " threshold must be a share between 0 and 100, not "
                    + (Double.isFinite(pct) ? Units.num(pct) : String.valueOf(pct)));
        }
    }

    /**
     * The severity of a finding whose fix recovers {@code impact.savingPct()} of its step or range: what can be won
     * back, not what is spent (a GPU idle 60% of the time because of several causes is rated by what fixing the one
     * the finding names recovers).
     */
    public Severity severityOf(Impact impact) {
        double share = impact.savingPct();
        if (share >= errorPct) return Severity.ERROR;
        if (share >= warningPct) return Severity.WARNING;
        return Severity.NOTE;
    }

    /** {@code error ≥ 20%, warning ≥ 5%}, for help pages and messages. */
    public String describe() {
        return String.format(Locale.ROOT, "error ≥ %s%%, warning ≥ %s%%, note below", Units.num(errorPct), Units.num(warningPct));
    }
}
