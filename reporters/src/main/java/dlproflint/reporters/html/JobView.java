package dlproflint.reporters.html;

import dlproflint.facts.CollectiveSummary;
import dlproflint.facts.JobFacts;
import dlproflint.facts.JobInfo;
import dlproflint.facts.JobInput;
import dlproflint.facts.RankStats;
import dlproflint.facts.RankStep;
import dlproflint.findings.Units;
import dlproflint.reporters.JobLines;
import dlproflint.reporters.html.svg.SvgHeatMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The job section of the HTML report: what the job is and how its ranks were identified, rank × step heat maps of
 * step time and exposed communication (inline SVG), the slowest ranks, the collectives, and the inputs left out.
 * Profile strings pass through {@link Text}; the template escapes them, the SVG escapes its own text.
 */
public record JobView(List<Metric> cards, String stepHeatMap, String exposedHeatMap, List<RankRow> slowest,
                      List<CollectiveRow> collectives, List<InputRow> leftOut, List<String> notes) {
    /** How many of the slowest ranks are listed. */
    public static final int SLOWEST = 10;

    public record RankRow(int rank, String profile, String work, long workNs, String compute, long computeNs,
                          String dataLoader, long dataLoaderNs, String idle, long idleNs, String waiting, long waitNs,
                          String lastArrivals, int lastArrivalCount) {
    }

    public record CollectiveRow(String kind, int ranks, String calls, double callsPerStep, String bytes, double bytesPerStep,
                                String time, double timeNs, String waitShare, double waitSharePct) {
    }

    public record InputRow(String profile, String status, String note) {
    }

    public static JobView of(JobFacts f) {
        JobInfo j = f.job();
        List<Metric> cards = new ArrayList<>();
        cards.add(new Metric("Ranks", j.ranksRead() + " of " + j.worldSize(),
                "world size from " + Text.clean(j.worldSizeSource()) + (j.missingRanks().isEmpty() ? "" : "; missing " + j.missingRanks())));
        cards.add(new Metric("Identified by", Text.orDash(j.rankSource()), null));
        cards.add(new Metric("Aligned steps", Integer.toString(j.alignedSteps()), "by " + j.stepAlignment().replace('-', ' ')));
        if (j.alignedSteps() > 0) {
            cards.add(new Metric("Median step", Units.duration(j.stepNs().median()), null));
            cards.add(new Metric("Exposed communication", Units.duration(j.exposedCommNs().median()),
                    "per step on the median rank; overlap " + Units.pct(j.overlapPct())));
            cards.add(new Metric("Waiting in collectives", Units.duration(j.waitNs().median()), "per step on the median rank"));
        }
        List<RankRow> slow = new ArrayList<>();
        for (RankStats r : JobLines.slowest(f, SLOWEST)) {
            slow.add(new RankRow(r.rank(), Text.cell(r.profile()), Units.duration(r.workNs()), Math.round(r.workNs()),
                    Units.duration(r.computeNs()), Math.round(r.computeNs()), Units.duration(r.dataLoaderNs()),
                    Math.round(r.dataLoaderNs()), Units.duration(r.idleNs()), Math.round(r.idleNs()),
                    Units.duration(r.waitNs()), Math.round(r.waitNs()), r.lastArrivals() + " of " + r.steps(), r.lastArrivals()));
        }
        List<CollectiveRow> coll = new ArrayList<>();
        for (CollectiveSummary c : f.collectives()) {
            coll.add(new CollectiveRow(c.kind().label(), c.ranks(), Units.num(Math.round(c.callsPerStep() * 10) / 10.0),
                    c.callsPerStep(), c.bytesPerStep() < 0 ? "\u2014" : Units.bytes(Math.round(c.bytesPerStep())),
                    c.bytesPerStep(), Units.duration(c.timeNs()), c.timeNs(), Units.pct(c.waitSharePct()), c.waitSharePct()));
        }
        List<InputRow> left = new ArrayList<>();
        for (JobInput in : f.inputs()) {
            if (!in.used()) left.add(new InputRow(Text.cell(in.profile()), in.status(), Text.clean(in.note())));
        }
        List<String> notes = f.notes().stream().map(Text::clean).toList();
        String stepMap = null;
        String exposedMap = null;
        if (!f.steps().isEmpty()) {
            Grid g = Grid.of(f.steps());
            stepMap = SvgHeatMap.render("Step time per rank and step", "step time", g.values(0), g.ranks, g.steps,
                    "#eef3fb", "#1f4e9a", 720);
            exposedMap = SvgHeatMap.render("Exposed communication per rank and step", "exposed communication",
                    g.values(1), g.ranks, g.steps, "#fdf1e3", "#b35400", 720);
        }
        return new JobView(cards, stepMap, exposedMap, slow, coll, left, notes);
    }

    /** The rank × step values of the heat maps. */
    private record Grid(int[] ranks, int[] steps, Map<Integer, Map<Integer, RankStep>> cells) {
        static Grid of(List<RankStep> steps) {
            Map<Integer, Map<Integer, RankStep>> cells = new TreeMap<>();
            java.util.TreeSet<Integer> numbers = new java.util.TreeSet<>();
            for (RankStep s : steps) {
                cells.computeIfAbsent(s.rank(), k -> new TreeMap<>()).put(s.step(), s);
                numbers.add(s.step());
            }
            return new Grid(cells.keySet().stream().mapToInt(Integer::intValue).toArray(),
                    numbers.stream().mapToInt(Integer::intValue).toArray(), cells);
        }

        /** @param what 0 step time, 1 exposed communication */
        double[][] values(int what) {
            double[][] v = new double[ranks.length][steps.length];
            for (int i = 0; i < ranks.length; i++) {
                Arrays.fill(v[i], Double.NaN);
                Map<Integer, RankStep> row = cells.get(ranks[i]);
                for (int k = 0; k < steps.length; k++) {
                    RankStep s = row.get(steps[k]);
                    if (s != null) v[i][k] = what == 0 ? s.stepNs() : s.exposedCommNs();
                }
            }
            return v;
        }
    }
}
