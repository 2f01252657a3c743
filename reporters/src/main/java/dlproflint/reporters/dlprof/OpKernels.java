package dlproflint.reporters.dlprof;

import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.Stat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compute kernels per op: the kernel facts of one (op, kernel name) merged over devices (DLProf's
 * kernel and tensor-core reports have no device column), memory operations left out. Ordered like
 * the ops in the facts, then by kernel name.
 */
final class OpKernels {
    /** One kernel name of one op. */
    record Entry(String opId, OpFact op, String name, Stat gpuTime, Stat apiTime, boolean usesTc) {
    }

    private final List<Entry> entries;

    OpKernels(ProfileFacts facts) {
        Map<String, Integer> opOrder = new HashMap<>();
        Map<String, OpFact> opsById = new HashMap<>();
        for (OpFact op : facts.ops()) {
            opOrder.putIfAbsent(op.id(), opOrder.size());
            opsById.putIfAbsent(op.id(), op);
        }
        Map<List<String>, Entry> merged = new LinkedHashMap<>();
        for (KernelFact k : facts.kernels()) {
            if (Labels.isMemoryOperation(k.name())) continue;
            List<String> key = List.of(String.valueOf(k.opId()), String.valueOf(k.name()));
            Entry prev = merged.get(key);
            Stat gpu = k.gpuTime() == null ? Stat.EMPTY : k.gpuTime();
            Stat api = k.apiTime() == null ? Stat.EMPTY : k.apiTime();
            merged.put(key, prev == null
                    ? new Entry(k.opId(), opsById.get(k.opId()), k.name(), gpu, api, k.usesTc())
                    : new Entry(prev.opId(), prev.op(), prev.name(), prev.gpuTime().plus(gpu),
                            prev.apiTime().plus(api), prev.usesTc() || k.usesTc()));
        }
        List<Entry> list = new ArrayList<>(merged.values());
        Comparator<Entry> byOp = Comparator.comparing(e -> opOrder.getOrDefault(e.opId(), Integer.MAX_VALUE));
        list.sort(byOp.thenComparing(e -> String.valueOf(e.opId())).thenComparing(e -> String.valueOf(e.name())));
        this.entries = List.copyOf(list);
    }

    List<Entry> entries() {
        return entries;
    }

    /** The entries of each op id, in entry order. */
    Map<String, List<Entry>> byOp() {
        Map<String, List<Entry>> map = new LinkedHashMap<>();
        for (Entry e : entries) map.computeIfAbsent(e.opId(), k -> new ArrayList<>()).add(e);
        return map;
    }
}
