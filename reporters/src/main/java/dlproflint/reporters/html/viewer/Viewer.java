package dlproflint.reporters.html.viewer;

import dlproflint.findings.Units;
import dlproflint.facts.Direction;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.OpFact;
import dlproflint.facts.Percent;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.Finding;
import dlproflint.reporters.html.Metric;
import dlproflint.reporters.html.Text;
import dlproflint.reporters.html.table.Blocks;
import dlproflint.reporters.html.table.DataBlock;
import dlproflint.reporters.html.table.DataTable;
import dlproflint.reporters.html.table.DataTable.Link;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * The DLProf viewer's views of one profile beyond the dashboard, as interactive tables over data embedded
 * once: Op Type Summary, Ops and Kernels (select an op, see its kernels), Kernels by Iteration, Kernels by
 * Op, Iterations and GPUs; and for every finding the rows it is about ({@code findingLinks}, the ">>" of
 * DLProf's recommendations), while every row lists the findings that mention it.
 *
 * @param findingLinks per rendered finding (same order), links to the rows it is about
 */
public record Viewer(String pid, List<NavItem> nav, List<DataBlock> blocks, DataTable opTypes, DataTable ops,
                     DataTable opKernels, DataTable kernels, String opsNote, DataTable kbiIterations,
                     DataTable kbiKernels, DataTable kboIterations, DataTable kboOps, DataTable kboKernels,
                     String kernelRowsNote, String gpuAverageNote, List<Metric> aggregation, DataTable iterations,
                     String iterationsNote, DataTable gpus, List<List<DrillLink>> findingLinks) {

    /** The order of the ops table (and of the dashboard's top 10, so row i is the same op in both). */
    public static final Comparator<OpFact> OPS_BY_GPU_TIME = Comparator
            .comparingLong((OpFact o) -> o.gpuTime().total()).reversed()
            .thenComparing(o -> String.valueOf(o.name())).thenComparing(o -> String.valueOf(o.id()));

    /** A view in the navigation bar; {@code id} is the element id of its section. */
    public record NavItem(String id, String label) {
    }

    /** A link from a finding to rows: {@code view} to show, {@code target} = {@code tableId:rows} to highlight. */
    public record DrillLink(String text, String view, String target) {
    }

    /**
     * @param findings the profile's findings as rendered (their order gives the indexes and the
     *                 {@code pid-fN} anchors, N from 1)
     */
    public static Viewer of(String pid, ProfileFacts f, List<Finding> findings, List<String> findingAnchors,
                            List<String> severityIcons) {
        // the data of the tables at their row caps; when that exceeds the page's budget, smaller caps
        // (ops and kernels shrink; iterations, small rows, only when they alone take more than a third)
        Embedded e = Embedded.of(pid, f, findings, new RowIndex(f));
        if (e.chars > TABLE_BUDGET) {
            long itChars = e.iterations.json().length();
            int its = e.index.iterations.size();
            if (itChars > TABLE_BUDGET / 3) {
                its = scaled(its, (double) TABLE_BUDGET / 3 / itChars);
                itChars = TABLE_BUDGET / 3;
            }
            double shrink = (double) (TABLE_BUDGET - itChars) / (e.chars - e.iterations.json().length());
            e = Embedded.of(pid, f, findings, new RowIndex(f, scaled(e.index.ops.size(), shrink),
                    scaled(e.index.kernels.size(), shrink), its));
        }
        RowIndex index = e.index;
        FindingRefs refs = e.refs;
        Blocks blocks = new Blocks();
        String fb = pid + "-d-findings";
        DataBlock.Builder fbb = new DataBlock.Builder(fb, "anchor", "severity", "icon", "rule", "problem");
        for (int i = 0; i < findings.size(); i++) {
            Finding fi = findings.get(i);
            fbb.row(findingAnchors.get(i), fi.severity() == null ? "warning" : fi.severity().label(),
                    severityIcons.get(i), Text.clean(fi.ruleId()), Text.cell(fi.problem()));
        }
        DataBlock findingsBlock = blocks.add(fbb.build());
        DataBlock opsBlock = blocks.add(e.ops);
        blocks.add(OpData.types(pid + "-d-types", f.ops()));
        DataBlock kernelsBlock = blocks.add(e.kernels);
        long left = DATA_BUDGET - e.chars - findingsBlock.json().length();
        IterationData its = IterationData.of(pid, index, f.iterationKernels(), e.iterations, Math.max(0, left));
        blocks.add(its.iterations);
        blocks.add(its.kernels);
        blocks.add(its.ops);
        blocks.add(GpuData.of(pid + "-d-gpus", index, refs));
        boolean directions = index.ops.stream().anyMatch(o -> o.direction() != null
                && o.direction() != Direction.NA);

        DataTable opTypes = DataTable.builder(pid + "-t-types", "Op types", blocks.get(pid + "-d-types"), blocks)
                .columns(Columns.opTypes()).sortedBy("gpu", true).empty("No ops were recorded.").build();
        DataTable ops = DataTable.builder(pid + "-t-ops", "Ops", opsBlock, blocks)
                .columns(Columns.ops(directions, fb)).sortedBy("gpu", true).selectable()
                .capped(index.totalOps, "Only the " + Units.count(opsBlock.size()) + " ops with the most GPU time of "
                        + Units.count(index.totalOps) + " are embedded; " + DLPROF_REPORTS)
                .empty("No ops were recorded (no NVTX ranges, Kineto ops or DLProf op table).").build();
        DataTable opKernels = DataTable.builder(pid + "-t-opkernels", "Kernels of the selected op", kernelsBlock, blocks)
                .columns(Columns.kernelSummary(pid, false)).detailOf(ops, new Link("op", "#")).sortedBy("gpu", true)
                .selectable().empty("The selected op launched no kernel.").build();
        DataTable kernels = DataTable.builder(pid + "-t-kernels", "All kernels", kernelsBlock, blocks)
                .columns(Columns.kernelSummary(pid, true)).sortedBy("gpu", true).selectable()
                .capped(index.totalKernels, "Only the " + Units.count(kernelsBlock.size()) + " kernel rows with the most "
                        + "GPU time of " + Units.count(index.totalKernels) + " are embedded; " + DLPROF_REPORTS)
                .empty("No GPU kernels were recorded.").build();

        DataTable kbiIts = DataTable.builder(pid + "-t-kbi-its", "Aggregated iterations", its.iterations, blocks)
                .columns(Columns.iterationSummary(index.usedGpus())).base("agg", true).selectable()
                .empty("No iterations were aggregated.").build();
        DataTable kbiKernels = DataTable.builder(pid + "-t-kbi-kernels", "Kernels in the selected iteration",
                        its.kernels, blocks)
                .columns(Columns.iterationKernels(pid, directions)).detailOf(kbiIts, new Link("it", "it"))
                .sortedBy("start", false).empty("No kernel rows for this iteration.").build();
        DataTable kboIts = DataTable.builder(pid + "-t-kbo-its", "Aggregated iterations", its.iterations, blocks)
                .columns(Columns.iterationSummary(index.usedGpus())).base("agg", true).selectable()
                .empty("No iterations were aggregated.").build();
        DataTable kboOps = DataTable.builder(pid + "-t-kbo-ops", "Ops in the selected iteration", its.ops, blocks)
                .columns(Columns.iterationOps(pid, directions)).detailOf(kboIts, new Link("it", "it"))
                .sortedBy("start", false).selectable().empty("No kernel rows for this iteration.").build();
        DataTable kboKernels = DataTable.builder(pid + "-t-kbo-kernels", "Kernels of the selected iteration and op",
                        its.kernels, blocks)
                .columns(Columns.iterationKernels(pid, false)).detailOf(kboOps, new Link("it", "it"), new Link("op", "op"))
                .sortedBy("start", false).empty("No kernel rows for this op in this iteration.").build();
        DataTable iterations = DataTable.builder(pid + "-t-its", "Iterations", its.iterations, blocks)
                .columns(Columns.iterations(fb)).capped(index.totalIterations, "Only the first "
                        + Units.count(its.iterations.size()) + " of " + Units.count(index.totalIterations)
                        + " iterations are embedded; " + DLPROF_REPORTS)
                .empty("No iterations were found.").build();
        DataTable gpus = DataTable.builder(pid + "-t-gpus", "GPUs", blocks.get(pid + "-d-gpus"), blocks)
                .columns(Columns.gpus(fb)).selectable().empty("No GPU was recorded in this profile.").build();

        List<List<DrillLink>> links = new ArrayList<>();
        for (int i = 0; i < findings.size(); i++) links.add(drillLinks(pid, refs, i, index));
        List<NavItem> nav = List.of(new NavItem(pid + "-v-dash", "Dashboard"),
                new NavItem(pid + "-v-types", "Op Type Summary"), new NavItem(pid + "-v-ops", "Ops and Kernels"),
                new NavItem(pid + "-v-kbi", "Kernels by Iteration"), new NavItem(pid + "-v-kbo", "Kernels by Op"),
                new NavItem(pid + "-v-its", "Iterations"), new NavItem(pid + "-v-gpus", "GPUs"));
        return new Viewer(pid, nav, blocks.all(), opTypes, ops, opKernels, kernels,
                unlinkedKernels(index), kbiIts, kbiKernels, kboIts,
                kboOps, kboKernels, kernelRowsNote(f, its), "Average GPU time is the iteration's GPU time divided by the "
                        + index.usedGpus() + " GPU" + (index.usedGpus() == 1 ? "" : "s") + " that ran work.",
                aggregation(f), iterations, iterationNote(f), gpus, links);
    }

    /** Characters of JSON data one profile may embed (the page's markup adds a few hundred kB). */
    static final long DATA_BUDGET = 4_400_000;
    /** Of it, what the op, kernel and iteration tables may take; per-iteration kernel rows get the rest. */
    static final long TABLE_BUDGET = 3_000_000;

    /** The op, kernel and iteration blocks for one set of row caps, and their size. */
    private record Embedded(RowIndex index, FindingRefs refs, DataBlock ops, DataBlock kernels, DataBlock iterations,
                            long chars) {
        static Embedded of(String pid, ProfileFacts f, List<Finding> findings, RowIndex index) {
            FindingRefs refs = new FindingRefs(index, findings);
            DataBlock ops = OpData.ops(pid + "-d-ops", index, refs);
            DataBlock kernels = OpData.kernels(pid + "-d-kernels", index, refs);
            DataBlock its = IterationData.iterations(pid, index, f.iterationKernels(), refs);
            return new Embedded(index, refs, ops, kernels, its,
                    (long) ops.json().length() + kernels.json().length() + its.json().length());
        }
    }

    private static int scaled(int rows, double factor) {
        return Math.max(Math.min(rows, 100), (int) (rows * factor * 0.97));
    }

    private static final String DLPROF_REPORTS = "`dlprof-lint report PROFILE --reports detail,kernel,iteration` "
            + "writes every row as CSV.";

    private static String unlinkedKernels(RowIndex index) {
        long n = index.kernels.stream().filter(k -> index.op(k.opId()) == null).count();
        return n == 0 ? null : Units.count(n) + " kernel rows belong to ops that are not in the ops table; they are "
                + "listed under All kernels.";
    }

    private static String kernelRowsNote(ProfileFacts f, IterationData its) {
        if (f.iterationKernels().isEmpty()) {
            return f.kernels().isEmpty() ? "This profile has no kernels."
                    : "This profile's reader (" + Text.orDash(f.profile().format()) + ") records no per-iteration kernel "
                    + "rows, so only the iterations' own totals are shown; the kernels of the whole aggregated range are "
                    + "in Ops and Kernels.";
        }
        StringBuilder b = new StringBuilder();
        boolean sampled = f.warnings().stream().anyMatch(w -> "iteration-kernels-sampled".equals(w.code()));
        if (sampled) {
            b.append("The reader kept per-iteration kernel rows for ").append(Units.count(its.itemised))
                    .append(" evenly spread aggregated iterations (at most 200,000 rows per profile). ");
        }
        if (its.embedded < its.itemised) {
            b.append("To keep the report small, the rows of every ").append(its.stride)
                    .append(its.stride == 2 ? "nd" : "th").append(" of them are embedded: ")
                    .append(Units.count(its.embedded)).append(" iterations, ").append(Units.count(its.kernels.size()))
                    .append(" rows. ");
        }
        b.append("Kernel rows are per (op, kernel, device): launches, their GPU time and the offset of the first "
                + "launch from the iteration's start.");
        return b.toString();
    }

    private static String iterationNote(ProfileFacts f) {
        if (f.iterations().isEmpty()) return "No iterations were found; the whole profile is analysed as one interval.";
        return null;
    }

    /** How the iterations were found and which were aggregated (DLProf's Iterations view controls, read-only). */
    private static List<Metric> aggregation(ProfileFacts f) {
        IterationSummary s = f.iterationSummary();
        List<Metric> m = new ArrayList<>();
        String source = switch (s.keyNodeSource() == null ? "none" : s.keyNodeSource()) {
            case "user" -> "given with --key-node";
            case "default" -> "the framework's default";
            case "dlprof" -> "chosen by DLProf when it built the database";
            default -> "none: no key node";
        };
        m.add(new Metric("Key node", s.keyNode() == null ? "\u2014" : Text.cell(s.keyNode()),
                "The op whose instances end iterations (DLProf's key node)."));
        m.add(Metric.of("Key node source", source));
        m.add(Metric.of("Key node found", s.keyNode() == null ? "\u2014" : s.keyNodeFound() ? "yes" : "no"
                + " (the whole profile is one iteration)"));
        m.add(new Metric("How iterations were found", s.keyNode() == null || !s.keyNodeFound()
                ? "the whole profile is one interval"
                : "each instance of the key node ends an iteration: N instances give N+1 intervals", null));
        m.add(Metric.of("Total iterations", s.total() > 0 ? Units.count(s.total()) : "\u2014"));
        m.add(new Metric("Aggregation", s.total() > 0 ? "iterations " + s.aggStart() + " to " + s.aggStop() + " ("
                + Units.count(s.aggregated()) + " profiled)" : "\u2014",
                "Set with --iter-start / --iter-stop; every aggregate of the report covers these iterations."));
        m.add(Metric.of("Average iteration", s.avgDurationNs() > 0 ? Units.duration(s.avgDurationNs()) : "\u2014"));
        m.add(Metric.of("Standard deviation", s.avgDurationNs() > 0 ? Units.duration(s.stdDevNs()) + " ("
                + Percent.variationText(s.variationPct()) + (s.variationPct() <= 100 ? " of the average)" : ")")
                : "\u2014"));
        return m;
    }

    private static List<DrillLink> drillLinks(String pid, FindingRefs refs, int finding, RowIndex index) {
        List<DrillLink> out = new ArrayList<>();
        TreeSet<Integer> ops = refs.rows(finding, FindingRefs.Kind.OP);
        if (!ops.isEmpty()) {
            out.add(new DrillLink(ops.size() == 1 ? "op " + Text.cell(index.ops.get(ops.first()).name())
                    : ops.size() + " ops", pid + "-v-ops", pid + "-t-ops:" + FindingRefs.spec(ops)));
        }
        TreeSet<Integer> kernels = refs.rows(finding, FindingRefs.Kind.KERNEL);
        if (!kernels.isEmpty()) {
            out.add(new DrillLink(kernels.size() == 1 ? "kernel " + Text.cell(index.kernels.get(kernels.first()).name())
                    : kernels.size() + " kernel rows", pid + "-v-ops", pid + "-t-kernels:" + FindingRefs.spec(kernels)));
        }
        TreeSet<Integer> its = refs.rows(finding, FindingRefs.Kind.ITERATION);
        if (!its.isEmpty()) {
            int a = index.iterations.get(its.first()).index();
            int b = index.iterations.get(its.last()).index();
            out.add(new DrillLink(a == b ? "iteration " + a : "iterations " + a + "\u2013" + b, pid + "-v-its",
                    pid + "-t-its:" + FindingRefs.spec(its)));
        }
        TreeSet<Integer> gpus = refs.rows(finding, FindingRefs.Kind.GPU);
        if (!gpus.isEmpty()) {
            out.add(new DrillLink(gpus.size() == 1 ? "GPU " + index.devices.get(gpus.first()) : gpus.size() + " GPUs",
                    pid + "-v-gpus", pid + "-t-gpus:" + FindingRefs.spec(gpus)));
        }
        return out;
    }
}
