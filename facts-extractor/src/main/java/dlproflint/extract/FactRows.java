package dlproflint.extract;

import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.Stat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How many op and kernel rows a profile's facts carry: at most {@value #MAX_ROWS} of each, the ones with the most GPU
 * time; the others are summed into one row per GPU ({@code (N more kernel rows)}) and one op ({@code (N more ops)}),
 * with a warning saying so. Real profiles have a few thousand; a file of 200,000 distinct kernel names in 1 MB made
 * every rule session, comparison and report hold 200,000 of each (and two of them more than 512 MB). Applied where
 * every reader's facts pass ({@link ProfileReaders}), so no reader needs its own bound.
 */
public final class FactRows {
    public static final int MAX_ROWS = 50_000;

    private FactRows() {
    }

    public static ProfileFacts bound(ProfileFacts f) {
        if (f.kernels().size() <= MAX_ROWS && f.ops().size() <= MAX_ROWS) return f;
        List<KernelFact> kernels = f.kernels();
        List<OpFact> ops = f.ops();
        List<String> notes = new ArrayList<>();
        if (kernels.size() > MAX_ROWS) {
            Set<KernelFact> keep = top(kernels, Comparator.comparingLong((KernelFact k) -> k.gpuTime().total()).reversed());
            Map<Integer, List<KernelFact>> rest = new TreeMap<>();
            List<KernelFact> kept = new ArrayList<>(MAX_ROWS + 8);
            for (KernelFact k : kernels) {
                if (keep.contains(k)) kept.add(k);
                else rest.computeIfAbsent(k.deviceId(), d -> new ArrayList<>()).add(k);
            }
            for (Map.Entry<Integer, List<KernelFact>> e : rest.entrySet()) {
                String name = "(" + e.getValue().size() + " more kernel rows)";
                kept.add(new KernelFact(name, name, null, e.getKey(), sum(e.getValue().stream().map(KernelFact::gpuTime).toList()),
                        sum(e.getValue().stream().map(KernelFact::apiTime).toList()), false, null, null));
            }
            notes.add(kernels.size() + " kernel rows (kernel name × op × GPU); the " + MAX_ROWS + " with the most GPU time are kept"
                    + " and the other " + (kernels.size() - MAX_ROWS) + " summed into one row per GPU");
            kernels = kept;
        }
        if (ops.size() > MAX_ROWS) {
            Set<OpFact> keep = top(ops, Comparator.comparingLong((OpFact o) -> o.gpuTime().total()).reversed());
            List<OpFact> kept = new ArrayList<>(MAX_ROWS + 1);
            List<OpFact> rest = new ArrayList<>();
            for (OpFact o : ops) {
                if (keep.contains(o)) kept.add(o);
                else rest.add(o);
            }
            String name = "(" + rest.size() + " more ops)";
            kept.add(new OpFact("OTHER_OPS", name, "other", null, rest.stream().mapToLong(OpFact::calls).sum(),
                    sum(rest.stream().map(OpFact::cpuTime).toList()), sum(rest.stream().map(OpFact::gpuTime).toList()),
                    sum(rest.stream().map(OpFact::cpuOverhead).toList()), sum(rest.stream().map(OpFact::gpuIdle).toList()),
                    false, false, rest.stream().mapToLong(OpFact::tcGpuTimeNs).sum(), rest.stream().mapToLong(OpFact::kernelCalls).sum(),
                    null, null, List.of()));
            notes.add(ops.size() + " ops; the " + MAX_ROWS + " with the most GPU time are kept and the other " + rest.size()
                    + " summed into one");
            ops = kept;
        }
        return f.withRows(ops, kernels, "rows-folded", String.join("; ", notes)
                + " (a profile of so many distinct names is damaged or generated; findings about them would be noise)");
    }

    private static <T> Set<T> top(List<T> rows, Comparator<T> order) {
        List<T> sorted = new ArrayList<>(rows);
        sorted.sort(order);
        Set<T> kept = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        kept.addAll(sorted.subList(0, MAX_ROWS));
        return kept;
    }

    private static Stat sum(List<Stat> stats) {
        long count = 0;
        long total = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (Stat s : stats) {
            if (s == null || s.count() == 0) continue;
            count += s.count();
            total += s.total();
            min = Math.min(min, s.min());
            max = Math.max(max, s.max());
        }
        return count == 0 ? Stat.EMPTY : new Stat(count, total, min, max);
    }
}
