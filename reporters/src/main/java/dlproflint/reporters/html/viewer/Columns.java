package dlproflint.reporters.html.viewer;

import dlproflint.reporters.html.table.Column;
import dlproflint.reporters.html.table.Column.Kind;

import java.util.ArrayList;
import java.util.List;

/** The columns of each viewer table, named and explained as in DLProf's viewer guide (chapter 4). */
final class Columns {
    private static final String[] STATS = {"", "Avg", "Min", "Max"};
    private static final String[] STAT_FIELDS = {"", "Avg", "Min", "Max"};

    private Columns() {
    }

    /** Total/avg/min/max of one op statistic; only the total is a table column unless {@code all}. */
    private static void stats(List<Column> out, String field, String label, String hint, boolean all) {
        for (int i = 0; i < STATS.length; i++) {
            String text = i == 0 ? label : STATS[i] + " " + label;
            Column c = Column.duration(field + STAT_FIELDS[i], text).hint(i == 0 ? hint : null);
            out.add(all || i == 0 ? c : c.detailOnly());
        }
    }

    static List<Column> opTypes() {
        List<Column> c = new ArrayList<>();
        c.add(Column.text("type", "Op type"));
        c.add(Column.count("ops", "# Ops").hint("Ops of this type"));
        c.add(Column.count("calls", "# Calls").hint("Times ops of this type were called"));
        stats(c, "cpu", "CPU time", "Duration of the ops' ranges on the CPU", true);
        stats(c, "gpu", "GPU time", "GPU time of the kernels the ops launched", true);
        stats(c, "ovh", "CPU overhead", "From an op's start to its first GPU work", true);
        stats(c, "idle", "GPU idle", "GPU idle time inside the ops' GPU span", true);
        return c;
    }

    static List<Column> ops(boolean directions, String findingsBlock) {
        List<Column> c = new ArrayList<>();
        c.add(Column.duration("gpu", "GPU time").hint("Cumulative time of all GPU kernels launched for the op"));
        c.add(Column.duration("cpu", "CPU time").hint("Cumulative time of all op instances on the CPU"));
        c.add(Column.text("name", "Op name"));
        if (directions) c.add(Column.text("dir", "Direction").hint("fprop or bprop (PyTorch)"));
        c.add(Column.text("type", "Op type"));
        c.add(Column.count("calls", "Calls"));
        c.add(Column.bool("tcEl", "TC eligible").hint("The op type can use tensor cores (filter: 1 or 0)"));
        c.add(Column.bool("tc", "Using TC").hint("One of its kernels uses tensor cores (filter: 1 or 0)"));
        c.add(Column.count("kcalls", "Kernel calls").hint("Kernels launched by the op"));
        c.add(Column.duration("ovh", "CPU overhead").hint("From the op's start to its first GPU work, summed"));
        c.add(Column.duration("idle", "GPU idle").hint("GPU idle time inside the op's GPU span, summed"));
        c.add(Column.text("dtype", "Data type"));
        c.add(Column.findings(findingsBlock));
        // long texts go to the details panel: in the table they made every row tall and the table scroll sideways
        c.add(Column.text("shapes", "Input shapes").detailOnly());
        c.add(Column.text("stack", "Stack trace").hint("Python frames, innermost first").detailOnly());
        c.add(Column.text("id", "Op ID").detailOnly());
        c.add(Column.duration("tcNs", "TC GPU time").hint("GPU time of its tensor-core kernels").detailOnly());
        for (String[] s : new String[][] {{"gpu", "GPU time"}, {"cpu", "CPU time"}, {"ovh", "CPU overhead"},
                {"idle", "GPU idle"}}) {
            for (int i = 1; i < STATS.length; i++) {
                c.add(Column.duration(s[0] + STAT_FIELDS[i], STATS[i] + " " + s[1] + " per call").detailOnly());
            }
        }
        return c;
    }

    static List<Column> kernelSummary(String pid, boolean withOp) {
        String findingsBlock = pid + "-d-findings";
        List<Column> c = new ArrayList<>();
        c.add(Column.text("name", "Kernel name"));
        Column op = Column.ref("opName", "Op", Kind.TEXT, "op", pid + "-d-ops", "name").orElse("opId");
        if (withOp) c.add(op);
        c.add(Column.of("dev", "Device", Kind.INT));
        c.add(Column.bool("tc", "Using TC").hint("The kernel uses tensor cores (filter: 1 or 0)"));
        c.add(Column.count("calls", "Calls").hint("Times the kernel was launched"));
        c.add(Column.duration("gpu", "GPU time").hint("Sum of its launches' durations"));
        c.add(Column.duration("avg", "Avg"));
        c.add(Column.duration("min", "Min"));
        c.add(Column.duration("max", "Max"));
        c.add(Column.text("grid", "Grid").hint("Grid size of the first launch"));
        c.add(Column.text("block", "Block").hint("Block size of the first launch"));
        c.add(Column.findings(findingsBlock));
        c.add(Column.text("long", "Full name").detailOnly());
        if (!withOp) c.add(op.detailOnly());
        c.add(Column.duration("api", "Launch API time (CPU)").detailOnly());
        c.add(Column.duration("apiAvg", "Avg launch API time").detailOnly());
        return c;
    }

    static List<Column> iterationSummary(int gpus) {
        List<Column> c = new ArrayList<>();
        c.add(Column.of("it", "Iteration", Kind.INT));
        c.add(Column.count("start", "Timestamp (ns)").hint("When the iteration started (profile clock)"));
        c.add(Column.duration("dur", "Duration"));
        c.add(Column.count("kernels", "Total kernels").hint("Kernel launches in the iteration"));
        c.add(Column.count("tck", "TC kernels").hint("Tensor-core kernel launches (known when every launch is itemised)"));
        c.add(Column.duration("gpuAvg", "Average GPU time").hint("GPU time / " + gpus + " GPU(s)"));
        c.add(Column.of("gpuPct", "GPU share", Kind.PCT).hint("Average GPU time / iteration duration"));
        c.add(Column.duration("tcAvg", "Average TC GPU time").hint("Tensor-core GPU time / " + gpus + " GPU(s)"));
        c.add(Column.of("tcPct", "TC share", Kind.PCT).hint("Average TC GPU time / iteration duration"));
        return c;
    }

    static List<Column> iterationKernels(String pid, boolean directions) {
        String ops = pid + "-d-ops";
        String kernels = pid + "-d-kernels";
        List<Column> c = new ArrayList<>();
        c.add(Column.ref("op", "Op name", Kind.TEXT, "op", ops, "name"));
        if (directions) c.add(Column.ref("dir", "Direction", Kind.TEXT, "op", ops, "dir"));
        c.add(Column.ref("kernel", "Kernel name", Kind.TEXT, "k", kernels, "name"));
        c.add(Column.ref("dev", "Device", Kind.INT, "k", kernels, "dev"));
        c.add(new Column("start", "First launch", Kind.DURATION, "Start of its first launch, from the iteration's start",
                "off", null, null, true, null));
        c.add(Column.count("calls", "Calls").hint("Launches in the iteration"));
        c.add(Column.duration("gpu", "GPU time").hint("Their total GPU time"));
        c.add(Column.ref("tc", "Uses TC", Kind.BOOL, "k", kernels, "tc"));
        c.add(Column.ref("grid", "Grid", Kind.TEXT, "k", kernels, "grid"));
        c.add(Column.ref("block", "Block", Kind.TEXT, "k", kernels, "block"));
        return c;
    }

    static List<Column> iterationOps(String pid, boolean directions) {
        String ops = pid + "-d-ops";
        List<Column> c = new ArrayList<>();
        c.add(Column.ref("name", "Op name", Kind.TEXT, "op", ops, "name"));
        if (directions) c.add(Column.ref("dir", "Direction", Kind.TEXT, "op", ops, "dir"));
        c.add(Column.ref("type", "Op type", Kind.TEXT, "op", ops, "type"));
        c.add(new Column("start", "Op start", Kind.DURATION, "First kernel start, from the iteration's start", "start",
                null, null, true, null));
        c.add(Column.count("kernels", "Total kernels"));
        c.add(Column.count("tck", "TC kernels"));
        c.add(Column.duration("gpu", "Total GPU time"));
        c.add(Column.duration("tc", "TC GPU time"));
        c.add(Column.ref("dtype", "Data type", Kind.TEXT, "op", ops, "dtype"));
        c.add(Column.ref("shapes", "Input shapes", Kind.TEXT, "op", ops, "shapes"));
        c.add(Column.ref("stack", "Stack trace", Kind.TEXT, "op", ops, "stack"));
        return c;
    }

    static List<Column> iterations(String findingsBlock) {
        List<Column> c = new ArrayList<>();
        c.add(Column.of("it", "Iteration", Kind.INT));
        c.add(Column.bool("agg", "Aggregated").hint("Inside the aggregation range (filter: 1 or 0)"));
        c.add(Column.count("start", "Timestamp (ns)"));
        c.add(Column.duration("dur", "Duration"));
        c.add(Column.count("kernels", "Kernels"));
        c.add(Column.count("tck", "TC kernels"));
        c.add(Column.duration("gpu", "GPU time").hint("Kernel time launched in the iteration, all GPUs"));
        c.add(Column.duration("tc", "TC GPU time"));
        c.add(Column.duration("mem", "Memory").hint("memcpy and memset time"));
        c.add(Column.of("gpuPct", "GPU share", Kind.PCT).hint("Average GPU time per GPU / duration; the rest is idle"));
        c.add(Column.findings(findingsBlock));
        return c;
    }

    static List<Column> gpus(String findingsBlock) {
        List<Column> c = new ArrayList<>();
        c.add(Column.of("dev", "Device", Kind.INT));
        c.add(Column.text("name", "Name"));
        c.add(Column.text("cc", "Compute capability"));
        c.add(Column.of("sm", "SMs", Kind.INT));
        c.add(Column.of("mem", "Memory", Kind.BYTES));
        c.add(Column.of("memUsed", "Memory used", Kind.BYTES).hint("Peak, when the profile records it"));
        c.add(Column.count("kernels", "Kernels"));
        c.add(Column.duration("kernelNs", "Kernel time"));
        c.add(Column.count("memOps", "Memory ops"));
        c.add(Column.duration("busy", "Busy time").hint("Kernels, memcpys and memsets, overlap counted once"));
        c.add(Column.of("util", "Utilization", Kind.PCT).hint("Busy time / analysed span"));
        c.add(Column.bool("used", "Used"));
        c.add(Column.findings(findingsBlock));
        return c;
    }
}
