package dlproflint.reporters.html.viewer;

import dlproflint.facts.Direction;
import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.StackFrame;
import dlproflint.facts.Stat;
import dlproflint.reporters.dlprof.OpMetric;
import dlproflint.reporters.dlprof.OpStats;
import dlproflint.reporters.html.Text;
import dlproflint.reporters.html.table.DataBlock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The op, op-type and kernel blocks of a profile (DLProf's Ops, Op Type Summary and Kernel Summaries tables). */
final class OpData {
    /** Longest kernel long name, stack trace and input shapes embedded (the cell shows 120 characters). */
    static final int LONG_TEXT = 1000;

    private OpData() {
    }

    static DataBlock ops(String id, RowIndex index, FindingRefs refs) {
        DataBlock.Builder b = new DataBlock.Builder(id, "id", "name", "dir", "type", "calls", "tcEl", "tc", "kcalls",
                "gpu", "gpuAvg", "gpuMin", "gpuMax", "cpu", "cpuAvg", "cpuMin", "cpuMax", "ovh", "ovhAvg", "ovhMin",
                "ovhMax", "idle", "idleAvg", "idleMin", "idleMax", "tcNs", "dtype", "shapes", "stack", "findings");
        for (int i = 0; i < index.ops.size(); i++) {
            OpFact o = index.ops.get(i);
            List<Object> row = new ArrayList<>(Arrays.asList(Text.clean(o.id()), Text.clean(o.name()),
                    o.direction() == null ? Direction.NA.label() : o.direction().label(), Text.clean(o.type()), o.calls(),
                    o.tcEligible(), o.usesTc(), o.kernelCalls()));
            for (OpMetric m : List.of(OpMetric.GPU_TIME, OpMetric.CPU_TIME, OpMetric.CPU_OVERHEAD, OpMetric.GPU_IDLE)) {
                Stat s = m.of(o);
                if (s.count() == 0 && (m == OpMetric.CPU_OVERHEAD || m == OpMetric.GPU_IDLE)) {
                    // not measured (a PyTorch trace has no DLProf overhead or idle per op): "—", never "0 ns"
                    row.add(null);
                    row.add(null);
                    row.add(null);
                    row.add(null);
                    continue;
                }
                row.add(s.total());
                row.add(Math.round((double) s.total() / Math.max(1, o.calls() > 0 ? o.calls() : s.count())));
                row.add(s.min());
                row.add(s.max());
            }
            row.add(o.tcGpuTimeNs());
            row.add(Text.clean(o.dataType()));
            row.add(Text.truncate(Text.clean(o.inputShapes()), LONG_TEXT));
            row.add(Text.truncate(Text.clean(stack(o.stack())), LONG_TEXT));
            row.add(refs.findings(FindingRefs.Kind.OP, i));
            b.row(row.toArray());
        }
        return b.build();
    }

    private static String stack(List<StackFrame> frames) {
        if (frames.isEmpty()) return null;
        return frames.stream().map(f -> f.function() == null || f.function().isBlank() ? f.toString()
                : f + " in " + f.function()).collect(Collectors.joining("; "));
    }

    /** Op types by GPU time: DLProf's Op Type Summary (totals summed, average per call, min/max over the ops). */
    static DataBlock types(String id, List<OpFact> ops) {
        Map<String, OpStats> byType = new TreeMap<>();
        Map<String, java.util.Set<OpMetric>> measured = new java.util.HashMap<>();
        for (OpFact o : ops) {
            String t = o.type() == null ? "" : o.type();
            byType.computeIfAbsent(t, k -> new OpStats()).add(o);
            for (OpMetric m : OpMetric.values()) {
                if (m.of(o).count() > 0) measured.computeIfAbsent(t, k -> java.util.EnumSet.noneOf(OpMetric.class)).add(m);
            }
        }
        DataBlock.Builder b = new DataBlock.Builder(id, "type", "ops", "calls", "cpu", "cpuAvg", "cpuMin", "cpuMax",
                "gpu", "gpuAvg", "gpuMin", "gpuMax", "ovh", "ovhAvg", "ovhMin", "ovhMax", "idle", "idleAvg", "idleMin",
                "idleMax");
        byType.entrySet().stream()
                .sorted(Comparator.comparingLong((Map.Entry<String, OpStats> e) -> e.getValue().total(OpMetric.GPU_TIME))
                        .reversed().thenComparing(Map.Entry::getKey))
                .forEach(e -> {
                    OpStats s = e.getValue();
                    List<Object> row = new ArrayList<>(Arrays.asList(Text.clean(e.getKey()), s.ops(), s.calls()));
                    for (OpMetric m : OpMetric.values()) {
                        boolean unmeasured = (m == OpMetric.CPU_OVERHEAD || m == OpMetric.GPU_IDLE)
                                && !measured.getOrDefault(e.getKey(), java.util.Set.of()).contains(m);
                        if (unmeasured) {
                            row.add(null);
                            row.add(null);
                            row.add(null);
                            row.add(null);
                            continue;
                        }
                        row.add(s.total(m));
                        row.add(Math.round((double) s.total(m) / Math.max(1, s.calls())));
                        row.add(s.min(m));
                        row.add(s.max(m));
                    }
                    b.row(row.toArray());
                });
        return b.build();
    }

    static DataBlock kernels(String id, RowIndex index, FindingRefs refs) {
        DataBlock.Builder b = new DataBlock.Builder(id, "name", "long", "op", "opId", "dev", "tc", "calls", "gpu",
                "avg", "min", "max", "api", "apiAvg", "grid", "block", "findings");
        for (int i = 0; i < index.kernels.size(); i++) {
            KernelFact k = index.kernels.get(i);
            Integer op = index.op(k.opId());
            String name = Text.clean(k.name());
            String longName = k.longName() == null || k.longName().equals(k.name()) ? null
                    : Text.truncate(Text.clean(k.longName()), LONG_TEXT);
            Stat g = k.gpuTime();
            Stat a = k.apiTime();
            // the op's name comes from the ops block; the id only for an op that is not embedded
            b.row(name, longName, op, op == null ? Text.clean(k.opId()) : null, k.deviceId(), k.usesTc(), k.calls(), g.total(),
                    Math.round(g.avg()), g.min(), g.max(), a.total(), Math.round(a.avg()), Text.clean(k.grid()),
                    Text.clean(k.block()), refs.findings(FindingRefs.Kind.KERNEL, i));
        }
        return b.build();
    }
}
