package dlproflint.packs.cost;

import dlproflint.facts.JobInfo;
import dlproflint.facts.RankSpread;
import dlproflint.facts.RankStats;
import dlproflint.findings.Impact;

/**
 * What the {@code distributed} pack's findings cost a job, per step of the median rank: in data-parallel training every
 * step waits for the slowest rank at its collectives, so time one rank spends beyond the median is time every rank
 * loses. The help pages' "Cost estimate" sections explain each model.
 */
public final class JobCost {
    private JobCost() {
    }

    /**
     * A quantity spread unevenly over the ranks (compute, data loading): the busiest rank's excess over the median is
     * lost per step; evening the work out recovers at most the interquartile spread.
     *
     * @param what the quantity, for the model's description ("compute", "data-loading time")
     */
    public static Impact imbalance(RankSpread s, JobInfo j, String what, String busiest) {
        double lost = s.max() - s.median();
        return Impact.perStep(lost, j.stepNs().median(), Math.min(lost, s.interquartile()),
                "extra " + what + " of the " + busiest + " rank over the median, which every rank waits for");
    }

    /** Whether most of the exposed communication is waiting for slower ranks rather than transfer. */
    public static boolean mostlyWaiting(JobInfo j) {
        double exposed = j.exposedCommNs().median();
        return Math.min(exposed, j.waitNs().median()) >= exposed / 2;
    }

    /**
     * Communication no compute overlaps, on the median rank: a fix of the imbalance recovers the waiting part when that
     * is most of it, else hiding the transfers recovers the rest.
     */
    public static Impact exposedCommunication(JobInfo j) {
        double exposed = j.exposedCommNs().median();
        double wait = Math.min(exposed, j.waitNs().median());
        return Impact.perStep(exposed, j.stepNs().median(), mostlyWaiting(j) ? wait : exposed - wait,
                "exposed communication per step on the median rank");
    }

    /** Exposed transfer time (not waiting); overlapping up to {@code minOverlapPct} hides that share of it. */
    public static Impact lowOverlap(JobInfo j, double minOverlapPct) {
        double hideable = j.commNs().median() * (minOverlapPct - j.overlapPct()) / 100.0;
        return Impact.perStep(Math.max(0, j.exposedCommNs().median() - j.waitNs().median()), j.stepNs().median(), hideable,
                "exposed transfer time per step; the fix hides the communication up to the threshold's overlap");
    }

    /** A straggler costs every rank its lateness at the collectives, all of it recovered by fixing the rank. */
    public static Impact straggler(RankStats r, JobInfo j) {
        double gap = r.workNs() - j.workNs().median();
        return Impact.perStep(gap, j.stepNs().median(), gap, "how much later than the median rank it reaches its collectives, per step");
    }
}
