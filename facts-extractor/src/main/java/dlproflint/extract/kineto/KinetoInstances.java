package dlproflint.extract.kineto;

import dlproflint.extract.kineto.KinetoAggregator.GpuColumns;
import dlproflint.extract.kineto.KinetoAggregator.OpAgg;
import dlproflint.facts.Direction;
import dlproflint.facts.InstanceSink;
import dlproflint.facts.KernelInstance;

import java.util.List;

/**
 * A Kineto trace's kernels, copies and sets as {@link KernelInstance}s for DLProf's iteration report, in GPU
 * start order per device, from the primitive columns the aggregator already holds (one sort key and one
 * index per launch, no object per launch): each with its op (by External id), its iteration (the step that
 * launched it, as the facts count it) and, inside the aggregated range only, as DLProf's report lists them.
 * What a trace does not record per launch is given as the trace has it: grid and block of the kernel name's
 * first launch, no API call times (Kineto's runtime events are aggregated, not kept), data types and shapes
 * of the op's first recorded call.
 */
final class KinetoInstances {
    private static final int KERNEL = 0, MEMCPY = 1, MEMSET = 2;

    private final KinetoAggregator a;
    private final KinetoFactsBuilder facts;

    KinetoInstances(KinetoAggregator aggregator, KinetoFactsBuilder facts) {
        this.a = aggregator;
        this.facts = facts;
    }

    void stream(InstanceSink sink) {
        List<GpuColumns> tables = List.of(a.kernels, a.memcpys, a.memsets);
        int n = 0;
        for (GpuColumns t : tables) n += t.size();
        // sort key: (device, start); value: table and row. Devices are few: one pass per device keeps keys plain starts.
        java.util.TreeSet<Integer> devices = new java.util.TreeSet<>();
        for (GpuColumns t : tables) for (int k = 0; k < t.size(); k++) devices.add(t.device.get(k));
        for (int device : devices) {
            int m = 0;
            for (GpuColumns t : tables) for (int k = 0; k < t.size(); k++) if (t.device.get(k) == device) m++;
            long[] keys = new long[m];
            long[] rows = new long[m];
            int i = 0;
            for (int table = 0; table < tables.size(); table++) {
                GpuColumns t = tables.get(table);
                for (int k = 0; k < t.size(); k++) {
                    if (t.device.get(k) != device) continue;
                    keys[i] = t.start.get(k);
                    rows[i++] = ((long) k << 2) | table;
                }
            }
            ParallelSort.sort(keys, rows);
            for (int j = 0; j < m; j++) {
                int table = (int) (rows[j] & 3);
                int k = (int) (rows[j] >>> 2);
                int iteration = facts.stepOf(table, k);
                if (iteration < facts.aggFirst || iteration > facts.aggLast) continue;
                sink.accept(instance(tables.get(table), table, k, iteration, device));
            }
        }
    }

    private KernelInstance instance(GpuColumns t, int table, int k, int iteration, int device) {
        int nameIdx = t.nameIndex.get(k);
        String longName = a.names.get(nameIdx);
        long id = t.externalId.get(k);
        int opIdx = id == TraceEvent.NONE ? -1 : a.externalIdToOp.get(id, -1);
        OpAgg op = opIdx < 0 ? null : a.opList.get(opIdx);
        String kind = table == KERNEL ? "kernel" : table == MEMCPY ? "memcpy" : "memset";
        String shortName = table == KERNEL ? KinetoFactsBuilder.shortName(longName) : longName;
        String opName = op != null ? op.name : "unassociated_" + shortName;
        int[] dims = table == KERNEL ? a.kernelLaunchDims.get(nameIdx) : null;
        if (dims == null) dims = new int[6];
        String dataType = op == null ? null : KinetoNames.dataType(op.inputTypes);
        return new KernelInstance(kind, iteration, opName, opName, op == null ? Direction.NA : facts.pairs.direction(op.index),
                op == null ? "cuda" : facts.pairs.type(op.index), shortName, longName, device, t.start.get(k), t.dur.get(k),
                0, 0, table == KERNEL && facts.usesTc(nameIdx), dims[0], dims[1], dims[2], dims[3], dims[4], dims[5],
                dataType == null ? "" : dataType, op == null || op.inputDims == null ? "" : op.inputDims, "");
    }

}
