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
import dlproflint.reporters.html.table.Blocks;
import dlproflint.reporters.html.table.Column;
import dlproflint.reporters.html.table.DataBlock;
import dlproflint.reporters.html.table.DataTable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The job section of the HTML report: what the job is and how its ranks were identified, rank × step heat maps of
 * step time and exposed communication (inline SVG), and the report's table component over every rank (slowest
 * first), the collectives and every input. Profile strings pass through {@link Text}; the template escapes them,
 * the SVG and the data blocks escape their own text.
 */
public record JobView(List<Metric> cards, String stepHeatMap, String exposedHeatMap, DataTable ranks,
                      DataTable collectives, DataTable inputs, List<String> notes, List<DataBlock> blocks) {

    public static JobView of(JobFacts f, String pid) {
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
        Blocks blocks = new Blocks();
        DataBlock.Builder rb = new DataBlock.Builder(pid + "-d-ranks", "rank", "profile", "work", "step", "compute", "comm",
                "exposed", "loader", "idle", "wait", "last", "steps");
        for (RankStats r : JobLines.slowest(f, f.ranks().size())) {
            rb.row(r.rank(), Text.clean(r.profile()), Math.round(r.workNs()), Math.round(r.stepNs()), Math.round(r.computeNs()),
                    Math.round(r.commNs()), Math.round(r.exposedCommNs()), Math.round(r.dataLoaderNs()), Math.round(r.idleNs()),
                    Math.round(r.waitNs()), r.lastArrivals(), r.steps());
        }
        DataBlock ranksBlock = blocks.add(rb.build());
        DataTable ranks = DataTable.builder(pid + "-t-ranks", "Ranks, slowest first", ranksBlock, blocks)
                .columns(List.of(Column.of("rank", "Rank", Column.Kind.INT), Column.text("profile", "Profile"),
                        Column.duration("work", "To collectives").hint("time per step before the rank can enter its collectives: its step time minus its wait in them"),
                        Column.duration("compute", "Compute"), Column.duration("loader", "Data loading"),
                        Column.duration("idle", "GPU idle"), Column.duration("exposed", "Exposed comm"),
                        Column.duration("wait", "Waiting").hint("time per step in collectives waiting for the slowest rank"),
                        Column.count("last", "Arrived last").hint("aligned steps in which this rank waited least"),
                        Column.duration("step", "Step").detailOnly(), Column.duration("comm", "Communication").detailOnly(),
                        Column.count("steps", "Aligned steps").detailOnly()))
                .sortedBy("work", true).selectable().empty("No rank has per-step activity.").build();
        DataBlock.Builder cb = new DataBlock.Builder(pid + "-d-coll", "kind", "ranks", "calls", "bytes", "time", "wait", "share");
        for (CollectiveSummary c : f.collectives()) {
            cb.row(c.label(), c.ranks(), Math.round(c.callsPerStep() * 10) / 10.0,
                    c.bytesPerStep() < 0 ? null : Math.round(c.bytesPerStep()), Math.round(c.timeNs()), Math.round(c.waitNs()),
                    c.waitSharePct());
        }
        DataBlock collBlock = blocks.add(cb.build());
        DataTable coll = DataTable.builder(pid + "-t-coll", "Collectives per rank and step", collBlock, blocks)
                .columns(List.of(Column.text("kind", "Collective"), Column.count("ranks", "Ranks"),
                        Column.of("calls", "Calls per step", Column.Kind.COUNT), Column.of("bytes", "Bytes per step", Column.Kind.BYTES),
                        Column.duration("time", "Time per step"), Column.duration("wait", "Waiting per step"),
                        Column.of("share", "Waiting share", Column.Kind.PCT).hint("the part of the collectives' time spent waiting for the slowest rank")))
                .sortedBy("time", true).empty("No communication kernels or host-side collectives in any rank: waiting and overlap cannot be measured.").build();
        DataBlock.Builder ib = new DataBlock.Builder(pid + "-d-inputs", "profile", "format", "rank", "by", "status", "note");
        for (JobInput in : f.inputs()) {
            ib.row(Text.clean(in.profile()), in.format(), in.rank() < 0 ? null : in.rank(), in.identifiedBy(), in.status(),
                    Text.clean(in.note()));
        }
        DataBlock inputBlock = blocks.add(ib.build());
        DataTable inputs = DataTable.builder(pid + "-t-inputs", "Profiles given", inputBlock, blocks)
                .columns(List.of(Column.text("profile", "Profile"), Column.text("status", "Status"),
                        Column.of("rank", "Rank", Column.Kind.INT), Column.text("by", "Identified by"), Column.text("format", "Format"),
                        Column.text("note", "Why left out")))
                .empty("No profile was given.").build();
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
        return new JobView(cards, stepMap, exposedMap, ranks, coll, inputs, notes, blocks.all());
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
