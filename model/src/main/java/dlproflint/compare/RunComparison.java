package dlproflint.compare;

import dlproflint.facts.Comparison;
import dlproflint.facts.Iteration;
import dlproflint.facts.KernelDelta;
import dlproflint.facts.KernelFact;
import dlproflint.facts.KeyMetrics;
import dlproflint.facts.MetricDelta;
import dlproflint.facts.OpDelta;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Compares a head run with a base run ({@code dlprof-lint compare BASE HEAD}): key metrics (step time as per-step
 * distributions over the aggregated iterations, the shares as single values), GPU time per step of every op and
 * kernel matched by name ({@link MatchKeys}), and whether the two are runs of the same model at all.
 */
public final class RunComparison {
    /** The spread is never taken below this share of the base's center: perfectly steady runs still jitter a little. */
    static final double SPREAD_FLOOR_PCT = 0.5;

    private RunComparison() {
    }

    public static Comparison of(ProfileFacts base, ProfileFacts head) {
        Steps b = Steps.of(base);
        Steps h = Steps.of(head);
        boolean perStep = b.count > 0 && h.count > 0;
        List<MetricDelta> metrics = metrics(base, head, b, h);
        Map<String, Agg> baseOps = ops(base);
        Map<String, Agg> headOps = ops(head);
        Map<String, Agg> baseKernels = kernels(base);
        Map<String, Agg> headKernels = kernels(head);
        boolean byOps = hasNamedOps(baseOps) && hasNamedOps(headOps);
        Map<String, Agg> bm = byOps ? baseOps : baseKernels;
        Map<String, Agg> hm = byOps ? headOps : headKernels;
        int shared = 0;
        double sharedB = 0;
        double sharedH = 0;
        for (var e : bm.entrySet()) {
            Agg other = hm.get(e.getKey());
            if (other != null) {
                shared++;
                sharedB += e.getValue().gpuNs;
                sharedH += other.gpuNs;
            }
        }
        double totalB = total(bm);
        double totalH = total(hm);
        double overlap = totalB <= 0 || totalH <= 0 ? (shared > 0 ? 100 : 0)
                : 100 * Math.min(sharedB / totalB, sharedH / totalH);
        double baseStep = b.count > 0 ? Samples.median(b.durations) : base.breakdown().wallNs() > 0
                ? base.breakdown().wallNs() : base.profile().wallNs();
        OpSeries bs = OpSeries.of(base);
        OpSeries hs = OpSeries.of(head);
        int samples = perStep ? Math.min(bs.steps(), hs.steps()) : 0;
        List<OpDelta> opDeltas = new ArrayList<>();
        for (String key : new TreeSet<>(union(baseOps, headOps))) {
            Agg x = baseOps.get(key);
            Agg y = headOps.get(key);
            double bn = x == null ? 0 : x.gpuNs / b.divisor();
            double hn = y == null ? 0 : y.gpuNs / h.divisor();
            if (bn <= 0 && hn <= 0) continue;
            double spread = samples == 0 ? 0 : Samples.pooledSpread(bs.of(key), hs.of(key));
            opDeltas.add(new OpDelta(key, x == null ? null : x.id, y == null ? null : y.id,
                    y != null ? y.type : x.type, bn, hn, baseStep, samples, spread));
        }
        opDeltas.sort(Comparator.comparingDouble(OpDelta::growthNs).reversed().thenComparing(OpDelta::key));
        opDeltas = mostChanged(opDeltas);
        List<KernelDelta> kernelDeltas = new ArrayList<>();
        for (String key : new TreeSet<>(union(baseKernels, headKernels))) {
            Agg x = baseKernels.get(key);
            Agg y = headKernels.get(key);
            double bn = x == null ? 0 : x.gpuNs / b.divisor();
            double hn = y == null ? 0 : y.gpuNs / h.divisor();
            if (bn <= 0 && hn <= 0) continue;
            kernelDeltas.add(new KernelDelta(key, y != null ? y.name : x.name, y == null ? null : y.id, bn, hn, baseStep,
                    x != null && x.tc, y != null && y.tc));
        }
        kernelDeltas.sort(Comparator.comparingDouble(KernelDelta::growthNs).reversed().thenComparing(KernelDelta::key));
        kernelDeltas = mostChanged(kernelDeltas);
        boolean related = overlap >= Comparison.RELATED_OVERLAP_PCT;
        return new Comparison(base.profile().path(), base.profile().format(), perStep ? "step" : "run",
                b.count, h.count, byOps ? "ops" : "kernels", shared, bm.size(), hm.size(), overlap, related,
                metrics, opDeltas, kernelDeltas);
    }

    /** At most this many op or kernel deltas are kept (each a fact the regression rules see, and a row of the JSON). */
    public static final int MAX_DELTAS = 1_000;
    /** ... of which the ones that shrank most. */
    static final int MAX_SHRUNK = 200;

    /**
     * The deltas that can matter, from a list sorted by growth: all of them up to {@link #MAX_DELTAS}, else the
     * {@code MAX_DELTAS - MAX_SHRUNK} that grew most and the {@link #MAX_SHRUNK} that shrank most. Two profiles of
     * 200,000 distinct kernel names each made 400,000 facts; a regression is among the largest growths, and the
     * counts of the comparison ({@code baseCount}, {@code headCount}) still say how many there were.
     */
    static <T> List<T> mostChanged(List<T> sorted) {
        if (sorted.size() <= MAX_DELTAS) return sorted;
        List<T> kept = new ArrayList<>(sorted.subList(0, MAX_DELTAS - MAX_SHRUNK));
        kept.addAll(sorted.subList(sorted.size() - MAX_SHRUNK, sorted.size()));
        return kept;
    }

    // ---- key metrics -------------------------------------------------------------------------------------

    private static List<MetricDelta> metrics(ProfileFacts base, ProfileFacts head, Steps b, Steps h) {
        KeyMetrics kb = KeyMetrics.of(base);
        KeyMetrics kh = KeyMetrics.of(head);
        List<MetricDelta> out = new ArrayList<>();
        for (KeyMetrics.Metric m : KeyMetrics.Metric.values()) {
            Double vb = kb.get(m);
            Double vh = kh.get(m);
            if (vb == null && vh == null) continue;
            boolean steps = (m == KeyMetrics.Metric.STEP_TIME || m == KeyMetrics.Metric.STEP_TIME_P90)
                    && b.count > 0 && h.count > 0;
            if (steps) {
                double cb = m == KeyMetrics.Metric.STEP_TIME ? Samples.median(b.durations) : Samples.percentile(b.durations, 90);
                double ch = m == KeyMetrics.Metric.STEP_TIME ? Samples.median(h.durations) : Samples.percentile(h.durations, 90);
                double spread = Math.max(Samples.pooledSpread(b.durations, h.durations), Math.abs(cb) * SPREAD_FLOOR_PCT / 100);
                out.add(new MetricDelta(m.key(), m.unit(), m.higherIsWorse(), vb, vh, b.count, h.count, cb, ch, spread,
                        Samples.mannWhitneyP(b.durations, h.durations)));
            } else {
                out.add(new MetricDelta(m.key(), m.unit(), m.higherIsWorse(), vb, vh, 0, 0,
                        vb == null ? Double.NaN : vb, vh == null ? Double.NaN : vh, 0, Double.NaN));
            }
        }
        return out;
    }

    /** The aggregated steps of a profile split into more than one iteration. */
    private record Steps(int count, double[] durations) {
        static Steps of(ProfileFacts f) {
            if (f.iterationSummary().total() <= 1) return new Steps(0, new double[0]);
            List<Double> d = new ArrayList<>();
            for (Iteration it : f.iterations()) if (it.aggregated() && it.durationNs() > 0) d.add((double) it.durationNs());
            return new Steps(d.size(), d.stream().mapToDouble(Double::doubleValue).toArray());
        }

        /** What totals over the aggregated range are divided by to give per-step values (1: per run). */
        double divisor() {
            return Math.max(1, count);
        }
    }

    /**
     * Each op's GPU time in every itemised aggregated iteration, from the per-iteration kernel rows readers keep
     * ({@link dlproflint.facts.IterationKernel}; when a profile has more rows than they hold, whole iterations
     * evenly spread, which keeps every op's per-iteration time exact). An itemised iteration without a kernel of
     * the op counts 0 for it.
     */
    private record OpSeries(Map<String, double[]> byKey, int steps) {
        static OpSeries of(ProfileFacts f) {
            Map<String, String> keyOf = new java.util.HashMap<>();
            for (OpFact op : f.ops()) keyOf.put(op.id(), MatchKeys.op(op.name()));
            java.util.TreeSet<Integer> its = new java.util.TreeSet<>();
            for (dlproflint.facts.IterationKernel k : f.iterationKernels()) its.add(k.iteration());
            Map<Integer, Integer> pos = new java.util.HashMap<>();
            for (int it : its) pos.put(it, pos.size());
            Map<String, double[]> series = new java.util.HashMap<>();
            for (dlproflint.facts.IterationKernel k : f.iterationKernels()) {
                String key = keyOf.getOrDefault(k.opId(), MatchKeys.op(k.opId()));
                series.computeIfAbsent(key, x -> new double[its.size()])[pos.get(k.iteration())] += k.gpuTimeNs();
            }
            return new OpSeries(series, its.size());
        }

        double[] of(String key) {
            double[] s = byKey.get(key);
            return s == null ? new double[steps] : s;
        }
    }

    // ---- ops and kernels by match key -------------------------------------------------------------------

    private static final class Agg {
        String id;
        String name;
        String type;
        double gpuNs;
        double largest = -1;
        boolean tc;
        boolean named;
    }

    private static Map<String, Agg> ops(ProfileFacts f) {
        Map<String, Agg> m = new LinkedHashMap<>();
        for (OpFact op : f.ops()) {
            long t = op.gpuTime().total();
            Agg a = m.computeIfAbsent(MatchKeys.op(op.name()), k -> new Agg());
            a.gpuNs += t;
            a.named |= !op.unassociated();
            if (t > a.largest) {
                a.largest = t;
                a.id = op.id();
                a.name = op.name();
                a.type = op.type();
            }
        }
        return m;
    }

    private static Map<String, Agg> kernels(ProfileFacts f) {
        Map<String, Agg> m = new LinkedHashMap<>();
        for (KernelFact k : f.kernels()) {
            long t = k.gpuTime().total();
            Agg a = m.computeIfAbsent(MatchKeys.kernel(k.name()), x -> new Agg());
            a.gpuNs += t;
            a.tc |= k.usesTc();
            if (t > a.largest) {
                a.largest = t;
                a.id = k.opId();
                a.name = k.name();
            }
        }
        return m;
    }

    private static boolean hasNamedOps(Map<String, Agg> ops) {
        return ops.values().stream().anyMatch(a -> a.named && a.gpuNs > 0);
    }

    private static double total(Map<String, Agg> m) {
        return m.values().stream().mapToDouble(a -> a.gpuNs).sum();
    }

    private static TreeSet<String> union(Map<String, Agg> a, Map<String, Agg> b) {
        TreeSet<String> keys = new TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        return keys;
    }
}
