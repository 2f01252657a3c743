package dlproflint.reporters;

import dlproflint.facts.CollectiveSummary;
import dlproflint.facts.JobFacts;
import dlproflint.facts.JobInfo;
import dlproflint.facts.JobInput;
import dlproflint.facts.RankStats;
import dlproflint.findings.Units;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.StringJoiner;

/**
 * A distributed job's cross-rank facts as short lines of plain text (the text and Markdown reports): ranks and
 * how they were identified, the median step and its parts, the slowest ranks, the collectives, the inputs left
 * out and the choices made. Profile strings are returned raw: the caller escapes them for its target.
 */
public final class JobLines {
    /** How many of the slowest ranks are listed. */
    public static final int SLOWEST = 5;

    private JobLines() {
    }

    public static List<String> lines(JobFacts f) {
        JobInfo j = f.job();
        List<String> out = new ArrayList<>();
        out.add("ranks: " + j.ranksRead() + " read of world size " + j.worldSize() + " (" + j.worldSizeSource() + ")"
                + (j.missingRanks().isEmpty() ? "" : ", missing " + j.missingRanks())
                + " | identified by " + (j.rankSource() == null || j.rankSource().isEmpty() ? "nothing" : j.rankSource())
                + (j.backend() == null ? "" : " | backend " + j.backend())
                + " | " + j.alignedSteps() + " aligned step" + (j.alignedSteps() == 1 ? "" : "s")
                + " (by " + j.stepAlignment().replace('-', ' ') + ")");
        if (j.alignedSteps() > 0) {
            out.add("per step (median rank): step " + Units.duration(j.stepNs().median())
                    + " | compute " + Units.duration(j.computeNs().median())
                    + " | communication " + Units.duration(j.commNs().median())
                    + ", exposed " + Units.duration(j.exposedCommNs().median())
                    + " (overlap " + Units.pct(j.overlapPct()) + ")"
                    + " | waiting in collectives " + Units.duration(j.waitNs().median())
                    + " | data loading " + Units.duration(j.dataLoaderNs().median())
                    + " | GPU idle " + Units.duration(j.idleNs().median()));
            StringJoiner slow = new StringJoiner(", ");
            for (RankStats r : slowest(f, SLOWEST)) {
                slow.add("rank " + r.rank() + " " + Units.duration(r.workNs()) + " (last in " + r.lastArrivals() + "/" + r.steps() + ")");
            }
            out.add("slowest ranks (time to reach the collectives per step): " + slow);
        }
        if (!f.collectives().isEmpty()) {
            StringJoiner c = new StringJoiner("; ");
            for (CollectiveSummary s : f.collectives()) {
                c.add(s.label() + " " + Units.num(Math.round(s.callsPerStep() * 10) / 10.0) + " calls"
                        + (s.bytesPerStep() >= 0 ? ", " + Units.bytes(Math.round(s.bytesPerStep())) : "")
                        + ", " + Units.duration(s.timeNs()) + ", " + Units.pct(s.waitSharePct()) + " waiting");
            }
            out.add("collectives (per rank and step): " + c);
        } else {
            out.add("collectives: none seen (no communication kernels, no host-side collectives): waiting and overlap cannot be measured");
        }
        for (JobInput in : f.inputs()) {
            if (!in.used()) out.add("left out: " + in.profile() + " (" + in.status() + ": " + in.note() + ")");
        }
        for (String note : f.notes()) {
            if (!note.contains(": unreadable (") && !note.contains(": left out ")) out.add("note: " + note);
        }
        return out;
    }

    /** The ranks that need longest to reach their collectives, slowest first. */
    public static List<RankStats> slowest(JobFacts f, int n) {
        List<RankStats> sorted = new ArrayList<>(f.ranks());
        sorted.sort(Comparator.comparingDouble(RankStats::workNs).reversed().thenComparingInt(RankStats::rank));
        return sorted.subList(0, Math.min(n, sorted.size()));
    }
}
