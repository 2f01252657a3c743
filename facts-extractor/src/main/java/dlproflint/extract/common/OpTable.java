package dlproflint.extract.common;

import dlproflint.facts.Direction;
import dlproflint.facts.OpFact;
import dlproflint.facts.StackFrame;
import dlproflint.facts.StatAccumulator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Ops aggregated over their calls: one row per distinct op, whatever the number of calls. */
public final class OpTable {
    private final Map<String, Row> rows = new LinkedHashMap<>();
    private Map<String, String> ids;

    private static final class Row {
        String name;
        String type;
        Direction direction;
        long firstStart = Long.MAX_VALUE;
        long calls;
        final StatAccumulator cpu = new StatAccumulator();
        final StatAccumulator gpu = new StatAccumulator();
        final StatAccumulator overhead = new StatAccumulator();
        final StatAccumulator idle = new StatAccumulator();
        boolean usesTc;
        long tcNs;
        long kernelCalls;
        String dataType;
        String inputShapes;
        List<StackFrame> stack = List.of();
    }

    public void add(OpInstance i) {
        Row r = rows.computeIfAbsent(i.key, k -> new Row());
        if (r.name == null) {
            r.name = i.name;
            r.type = i.type;
            r.direction = i.direction;
        }
        r.firstStart = Math.min(r.firstStart, i.cpuStart);
        r.calls++;
        r.cpu.add(i.cpuNs());
        r.gpu.add(i.gpuNs());
        r.overhead.add(i.cpuOverheadNs());
        r.idle.add(i.gpuIdleNs());
        r.usesTc |= i.usesTc;
        r.tcNs += i.tcNs;
        r.kernelCalls += i.kernelCalls;
        if (r.dataType == null) r.dataType = i.dataType;
        if (r.inputShapes == null) r.inputShapes = i.inputShapes;
        if (r.stack.isEmpty()) r.stack = i.stack;
    }

    /** Adds another table's calls (the ops of other iterations) to this one's; before {@link #ids()}. */
    public void absorb(OpTable o) {
        if (ids != null) throw new IllegalStateException("ops already numbered");
        for (Map.Entry<String, Row> e : o.rows.entrySet()) {
            Row x = e.getValue();
            Row r = rows.computeIfAbsent(e.getKey(), k -> new Row());
            if (r.name == null) {
                r.name = x.name;
                r.type = x.type;
                r.direction = x.direction;
            }
            r.firstStart = Math.min(r.firstStart, x.firstStart);
            r.calls += x.calls;
            r.cpu.add(x.cpu.toStat());
            r.gpu.add(x.gpu.toStat());
            r.overhead.add(x.overhead.toStat());
            r.idle.add(x.idle.toStat());
            r.usesTc |= x.usesTc;
            r.tcNs += x.tcNs;
            r.kernelCalls += x.kernelCalls;
            if (r.dataType == null) r.dataType = x.dataType;
            if (r.inputShapes == null) r.inputShapes = x.inputShapes;
            if (r.stack.isEmpty()) r.stack = x.stack;
        }
    }

    public int size() {
        return rows.size();
    }

    /** Assigns DLProf ids (per type, in order of first appearance); key → id. */
    public Map<String, String> ids() {
        if (ids == null) {
            ids = new HashMap<>();
            OpIds gen = new OpIds();
            List<Map.Entry<String, Row>> order = new ArrayList<>(rows.entrySet());
            order.sort(Comparator.comparingLong(e -> e.getValue().firstStart));
            for (Map.Entry<String, Row> e : order) ids.put(e.getKey(), gen.next(e.getValue().type));
        }
        return ids;
    }

    /** Facts in order of first appearance. */
    public List<OpFact> facts() {
        Map<String, String> idMap = ids();
        List<Map.Entry<String, Row>> order = new ArrayList<>(rows.entrySet());
        order.sort(Comparator.comparingLong(e -> e.getValue().firstStart));
        List<OpFact> out = new ArrayList<>(order.size());
        for (Map.Entry<String, Row> e : order) {
            Row r = e.getValue();
            out.add(new OpFact(idMap.get(e.getKey()), r.name, r.type, r.direction, r.calls, r.cpu.toStat(),
                    r.gpu.toStat(), r.overhead.toStat(), r.idle.toStat(), TensorCores.opTypeEligible(r.type),
                    r.usesTc, r.tcNs, r.kernelCalls, r.dataType, r.inputShapes, r.stack));
        }
        return out;
    }
}
