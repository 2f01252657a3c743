package dlproflint.reporters.dlprof;

import dlproflint.facts.OpFact;
import dlproflint.facts.Stat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The four per-op time statistics DLProf prints as Total/Avg./Min/Max column groups, in its order. */
public enum OpMetric {
    CPU_TIME("CPU Time", OpFact::cpuTime),
    GPU_TIME("GPU Time", OpFact::gpuTime),
    CPU_OVERHEAD("CPU Overhead", OpFact::cpuOverhead),
    GPU_IDLE("GPU Idle", OpFact::gpuIdle);

    private final String label;
    private final Function<OpFact, Stat> stat;

    OpMetric(String label, Function<OpFact, Stat> stat) {
        this.label = label;
        this.stat = stat;
    }

    public Stat of(OpFact op) {
        Stat s = stat.apply(op);
        return s == null ? Stat.EMPTY : s;
    }

    /** DLProf's name of the statistic ({@code CPU Time}, {@code GPU Idle}, ...). */
    public String label() {
        return label;
    }

    /** {@code Total CPU Time (ns),Avg. CPU Time (ns),Min CPU Time (ns),Max CPU Time (ns), ...} for all four. */
    static List<Column> columns() {
        List<Column> cols = new ArrayList<>();
        for (OpMetric m : values()) {
            cols.add(Column.integer("Total " + m.label + " (ns)"));
            cols.add(Column.decimal("Avg. " + m.label + " (ns)"));
            cols.add(Column.integer("Min " + m.label + " (ns)"));
            cols.add(Column.integer("Max " + m.label + " (ns)"));
        }
        return cols;
    }
}
