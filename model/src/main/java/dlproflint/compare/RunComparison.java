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
 *
 * <p>Step time is split into what the GPU ran (kernel time per step, which repeats from run to run on the same GPU)
 * and the host-side gaps in which it waited (which vary with the machine and its load between runs), so a rule can
 * tell a change of the GPU's work from a change of the host's pace. With several captures of a side
 * ({@code compare BASE... -- HEAD...}), step times are judged between runs: each capture is reduced to its own
 * median (or p90), the sides' centers are the medians of those, and the spread is the pooled standard deviation of
 * the runs' values, the variation a re-run really shows. Ops and kernels are compared on each side's median run
 * (by step time), the run Lighthouse CI would also report.
 */
public final class RunComparison {
    /** The spread is never taken below this share of the base's center: perfectly steady runs still jitter a little. */
    static final double SPREAD_FLOOR_PCT = 0.5;
    /** What the GPU ran per step: the kernel time launched in each step. */
    public static final String KERNEL_TIME = "gpu-kernel-time";
    /** The rest of the step: the time the GPU ran nothing in it (host-side gaps). */
    public static final String HOST_GAPS = "host-gaps";

    private RunComparison() {
    }

    public static Comparison of(ProfileFacts base, ProfileFacts head) {
        return of(List.of(base), List.of(head));
    }

    /**
     * Several captures of each side (at least one): step times judged between runs, everything else on each
     * side's {@link #representative median run}.
     */
    public static Comparison of(List<ProfileFacts> bases, List<ProfileFacts> heads) {
        ProfileFacts base = bases.get(representative(bases));
        ProfileFacts head = heads.get(representative(heads));
        Steps b = Steps.of(base);
        Steps h = Steps.of(head);
        boolean perStep = b.count > 0 && h.count > 0;
        List<MetricDelta> metrics = metrics(bases, heads, base, head, b, h);
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
        List<String> basePaths = bases.stream().map(f -> f.profile().path()).toList();
        List<String> headPaths = heads.stream().map(f -> f.profile().path()).toList();
        return new Comparison(base.profile().path(), base.profile().format(), perStep ? "step" : "run",
                b.count, h.count, byOps ? "ops" : "kernels", shared, bm.size(), hm.size(), overlap, related,
                metrics, opDeltas, kernelDeltas, basePaths, headPaths);
    }

    /**
     * The index of the run that stands for its side: the one with the median step time (the lower middle of an
     * even count; ties in the order given).
     */
    public static int representative(List<ProfileFacts> runs) {
        if (runs.size() == 1) return 0;
        Integer[] order = new Integer[runs.size()];
        double[] step = new double[runs.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
            step[i] = stepCenter(runs.get(i), false);
        }
        java.util.Arrays.sort(order, Comparator.comparingDouble((Integer i) -> step[i]));
        return order[(order.length - 1) / 2];
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

    private static List<MetricDelta> metrics(List<ProfileFacts> bases, List<ProfileFacts> heads, ProfileFacts base,
                                             ProfileFacts head, Steps b, Steps h) {
        KeyMetrics kb = KeyMetrics.of(base);
        KeyMetrics kh = KeyMetrics.of(head);
        boolean severalRuns = bases.size() > 1 || heads.size() > 1;
        List<MetricDelta> out = new ArrayList<>();
        for (KeyMetrics.Metric m : KeyMetrics.Metric.values()) {
            Double vb = kb.get(m);
            Double vh = kh.get(m);
            if (vb == null && vh == null) continue;
            boolean stepMetric = m == KeyMetrics.Metric.STEP_TIME || m == KeyMetrics.Metric.STEP_TIME_P90;
            boolean p90 = m == KeyMetrics.Metric.STEP_TIME_P90;
            if (stepMetric && severalRuns && vb != null && vh != null) {
                out.add(betweenRuns(m.key(), m.unit(), m.higherIsWorse(), vb, vh,
                        runValues(bases, f -> stepCenter(f, p90)), runValues(heads, f -> stepCenter(f, p90)),
                        stepCount(bases), stepCount(heads)));
            } else if (stepMetric && b.count > 0 && h.count > 0) {
                out.add(withinRun(m.key(), m.unit(), m.higherIsWorse(), vb, vh, b.durations, h.durations, p90));
            } else {
                out.add(new MetricDelta(m.key(), m.unit(), m.higherIsWorse(), vb, vh, 0, 0,
                        vb == null ? Double.NaN : vb, vh == null ? Double.NaN : vh, 0, Double.NaN));
            }
        }
        if (b.count > 0 && h.count > 0) parts(out, bases, heads, b, h, severalRuns);
        return out;
    }

    /**
     * The step split in two: the kernel time launched in each step (what the GPU ran) and the time the GPU ran
     * nothing in it (host-side gaps: launch gaps, waits for data, synchronisation), each as per-step medians
     * judged like the step time. Where a profile does not measure GPU idle time per step, the gaps are the step
     * minus its kernel time. Left out when a side ran no kernel time in its steps.
     */
    private static void parts(List<MetricDelta> out, List<ProfileFacts> bases, List<ProfileFacts> heads, Steps b,
                              Steps h, boolean severalRuns) {
        if (Samples.median(b.kernel) <= 0 || Samples.median(h.kernel) <= 0) return;
        boolean idleKnown = java.util.stream.Stream.concat(bases.stream(), heads.stream()).allMatch(f -> Steps.of(f).idleKnown);
        if (severalRuns) {
            out.add(betweenRuns(KERNEL_TIME, "ns", true, Samples.median(b.kernel), Samples.median(h.kernel),
                    runValues(bases, f -> Samples.median(Steps.of(f).kernel)), runValues(heads, f -> Samples.median(Steps.of(f).kernel)),
                    stepCount(bases), stepCount(heads)));
            out.add(betweenRuns(HOST_GAPS, "ns", true, Samples.median(b.gaps(idleKnown)), Samples.median(h.gaps(idleKnown)),
                    runValues(bases, f -> Samples.median(Steps.of(f).gaps(idleKnown))),
                    runValues(heads, f -> Samples.median(Steps.of(f).gaps(idleKnown))), stepCount(bases), stepCount(heads)));
        } else {
            out.add(withinRun(KERNEL_TIME, "ns", true, Samples.median(b.kernel), Samples.median(h.kernel), b.kernel, h.kernel, false));
            double[] bg = b.gaps(idleKnown);
            double[] hg = h.gaps(idleKnown);
            out.add(withinRun(HOST_GAPS, "ns", true, Samples.median(bg), Samples.median(hg), bg, hg, false));
        }
    }

    /** Per-step samples of one run each: medians (or p90s), the pooled per-step spread, the rank test of the steps. */
    private static MetricDelta withinRun(String key, String unit, boolean worseHigher, Double vb, Double vh, double[] b,
                                         double[] h, boolean p90) {
        double cb = p90 ? Samples.percentile(b, 90) : Samples.median(b);
        double ch = p90 ? Samples.percentile(h, 90) : Samples.median(h);
        double spread = Math.max(Samples.pooledSpread(b, h), Math.abs(cb) * SPREAD_FLOOR_PCT / 100);
        return new MetricDelta(key, unit, worseHigher, vb, vh, b.length, h.length, cb, ch, spread,
                Samples.mannWhitneyP(b, h), MetricDelta.STEPS, 1, 1);
    }

    /**
     * One value per capture: the sides' centers are the medians of their runs' values, the spread their pooled
     * standard deviation (never below the floor), the rank test is of the runs' values (NaN under 3 a side).
     */
    private static MetricDelta betweenRuns(String key, String unit, boolean worseHigher, Double vb, Double vh,
                                           double[] baseRuns, double[] headRuns, int baseSteps, int headSteps) {
        double cb = Samples.median(baseRuns);
        double ch = Samples.median(headRuns);
        double spread = Math.max(Samples.pooledSd(baseRuns, headRuns), Math.abs(cb) * SPREAD_FLOOR_PCT / 100);
        return new MetricDelta(key, unit, worseHigher, vb, vh, baseSteps, headSteps, cb, ch, spread,
                Samples.mannWhitneyP(baseRuns, headRuns), MetricDelta.RUNS, baseRuns.length, headRuns.length);
    }

    private static double[] runValues(List<ProfileFacts> runs, java.util.function.ToDoubleFunction<ProfileFacts> value) {
        return runs.stream().mapToDouble(value).toArray();
    }

    private static int stepCount(List<ProfileFacts> runs) {
        return runs.stream().mapToInt(f -> Steps.of(f).count).sum();
    }

    /** A run's median (or p90) step time, or its key metric where it was not split into steps. */
    private static double stepCenter(ProfileFacts f, boolean p90) {
        Steps s = Steps.of(f);
        if (s.count > 0) return p90 ? Samples.percentile(s.durations, 90) : Samples.median(s.durations);
        Double v = KeyMetrics.of(f).get(p90 ? KeyMetrics.Metric.STEP_TIME_P90 : KeyMetrics.Metric.STEP_TIME);
        return v == null ? Double.NaN : v;
    }

    /**
     * The aggregated steps of a profile split into more than one iteration: their durations, kernel time launched
     * in each, and the time the GPU ran nothing in each ({@code idleKnown} when the profile measured it for all).
     */
    private record Steps(int count, double[] durations, double[] kernel, double[] idle, boolean idleKnown) {
        static Steps of(ProfileFacts f) {
            if (f.iterationSummary().total() <= 1) return new Steps(0, new double[0], new double[0], new double[0], false);
            List<Iteration> its = new ArrayList<>();
            for (Iteration it : f.iterations()) if (it.aggregated() && it.durationNs() > 0) its.add(it);
            int n = its.size();
            double[] d = new double[n];
            double[] k = new double[n];
            double[] idle = new double[n];
            boolean known = n > 0;
            for (int i = 0; i < n; i++) {
                Iteration it = its.get(i);
                d[i] = it.durationNs();
                k[i] = it.gpuTimeNs();
                idle[i] = it.gpuIdleNs();
                known &= it.gpuIdleNs() >= 0;
            }
            return new Steps(n, d, k, idle, known);
        }

        /** Host-side gaps per step: GPU idle time where measured, else the step minus its kernel time. */
        double[] gaps(boolean useIdle) {
            double[] g = new double[count];
            for (int i = 0; i < count; i++) g[i] = useIdle ? idle[i] : Math.max(0, durations[i] - kernel[i]);
            return g;
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
