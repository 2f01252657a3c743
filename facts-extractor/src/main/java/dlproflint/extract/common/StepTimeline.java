package dlproflint.extract.common;

import dlproflint.facts.CollectiveCalls;
import dlproflint.facts.CollectiveKind;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.MeanSd;
import dlproflint.facts.Percent;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.StepActivity;
import dlproflint.facts.TimeBreakdown;

import java.util.ArrayList;
import java.util.List;

/**
 * The measurement layer (issue 23): every per-step figure of every format, computed once from what a reader's format
 * adapter measured - the steps' CPU windows ({@link Iterations}), the GPU side of each step by launch
 * ({@link StepGpuSweep}), the host's time per step by category ({@link #hostTime}), DataLoader and synchronisation
 * calls - and the decision of {@link StepWindow} (binding side, durations, steady window). It writes the
 * {@link Iteration}s, the {@link IterationSummary} with its window, the {@link TimeBreakdown}, the per-GPU
 * {@link GpuUsage}, and a distributed job's {@link StepActivity} and {@link CollectiveCalls}.
 *
 * <p><b>Time breakdown</b> (DLProf's buckets, over the aggregated steps' durations, so the shares add to 100 %): on
 * each GPU, each step's own busy time split by priority (tensor-core kernels, other kernels, copies and memsets),
 * and the rest of the step - the GPU idle - to what the host did in the step's CPU period: first its data loading and
 * file I/O (DLProf's priority: a host busy loading launches nothing, so the GPU idles then), the remaining idle time
 * split like the host's remaining time (CPU work, or "other": none of them), among which the launches fall. Measured
 * per step, none of it moves when the GPU's clock is shifted against the host's. The
 * buckets are averaged over the GPUs the reader names (an nsys export's target GPUs, as DLProf did; the GPUs that ran
 * work, for a trace).
 */
public final class StepTimeline {
    /** Host categories of {@link #hostTime}, in DLProf's priority order. */
    public static final int HOST_DATALOADER = 0;
    public static final int HOST_IO = 1;
    public static final int HOST_CPU = 2;
    public static final int HOST_CATEGORIES = 3;

    private final Iterations its;
    private final int[] numbers;
    private long[][] host;
    private long[] dataLoader;
    private long[] sync;

    /** @param stepNumbers each step's own number ({@code ProfilerStep#N}), or its index */
    public StepTimeline(Iterations its, int[] stepNumbers) {
        this.its = its;
        this.numbers = stepNumbers.clone();
    }

    /** The window over which a reader measures the host's time per step: every step's CPU period, in order. */
    public static long[] hostWindows(Iterations its) {
        int n = its.count();
        long[] b = new long[n + 1];
        for (int i = 0; i < n; i++) b[i] = its.start(i);
        b[n] = Math.max(its.start(n - 1), its.stop(n - 1));
        return b;
    }

    /**
     * The host's time in each step's CPU period ({@link #hostWindows}) by category, each instant to the highest
     * category active: {@code [step][HOST_*]}.
     */
    public void hostTime(long[][] perStep) {
        this.host = perStep;
    }

    /** DataLoader calls as sorted start and end times: each step's CPU window's share of them (overlaps once). */
    public void dataLoader(long[] sortedStarts, long[] sortedEnds) {
        dataLoader = its.coveredPerIteration(sortedStarts, sortedEnds);
    }

    /** DataLoader calls in any order. */
    public void dataLoader(StepInstances ranges) {
        long[] s = new long[ranges.size()];
        long[] e = new long[ranges.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = ranges.start(i);
            e[i] = ranges.end(i);
        }
        java.util.Arrays.sort(s);
        java.util.Arrays.sort(e);
        dataLoader(s, e);
    }

    /** The format shows synchronisation calls (so a step without any blocked for 0 ns, not an unknown time). */
    public void syncVisible() {
        if (sync == null) sync = new long[its.count()];
    }

    /** One synchronisation call, attributed to the step it started in. */
    public void sync(long start, long end) {
        syncVisible();
        if (end > start) sync[its.indexOf(start)] += end - start;
    }

    /**
     * The facts.
     *
     * @param d            the window decision
     * @param gpu          the finished GPU sweep
     * @param summary      how the steps were found (the window is added to it)
     * @param gpus         the GPUs to describe ({@link GpuUsage} each), sorted
     * @param overAllGpus  average the breakdown over all of {@code gpus} (an nsys export's target GPUs, as DLProf did),
     *                     else over those that ran work (a trace lists every visible GPU of its node); with none, the
     *                     breakdown is the host's alone
     * @param tcUtilPct    tensor-core kernel time over eligible kernel time in the window (the reader's, by launch)
     */
    public List<Iteration> write(StepWindow.Decision d, StepGpuSweep gpu, IterationSummary summary, List<Integer> gpus,
                                 boolean overAllGpus, double tcUtilPct, ProfileFacts.Builder out) {
        int n = its.count();
        long[] dur = d.durations();
        MeanSd agg = new MeanSd();
        List<Iteration> iterations = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            boolean aggregated = i >= d.first() && i <= d.last();
            if (aggregated) agg.add(dur[i]);
            Iteration it = iteration(i, aggregated, dur[i], gpu);
            iterations.add(it);
            out.iteration(it);
        }
        boolean split = n > 1;
        out.iterationSummary(summary.withWindow(split ? d.binding() : null, d.window(), d.leftOut(), d.note(), d.first(),
                d.last(), agg.mean(), agg.sd()));
        List<Integer> worked = new ArrayList<>();
        for (int g : gpus) if (ran(gpu, d, g)) worked.add(g);
        breakdown(d, gpu, gpus, overAllGpus ? gpus : worked, tcUtilPct, out);
        jobSteps(d, gpu, out);
        return iterations;
    }

    /** Whether GPU {@code device} ran work of an aggregated step. */
    private static boolean ran(StepGpuSweep gpu, StepWindow.Decision d, int device) {
        for (int i = d.first(); i <= d.last(); i++) if (gpu.on(i, device).ran()) return true;
        return false;
    }

    private Iteration iteration(int i, boolean aggregated, long stepNs, StepGpuSweep gpu) {
        StepGpuSweep.Cell all = gpu.all(i);
        long busy = 0;
        long spanIdle = 0;
        int ran = 0;
        for (int device : gpu.devices()) {
            StepGpuSweep.Cell c = gpu.on(i, device);
            if (!c.ran()) continue;
            ran++;
            busy += c.busyNs();
            spanIdle += Math.max(0, c.spanNs() - c.busyNs());
        }
        long busyAvg = ran == 0 ? 0 : busy / ran;
        long idle = Math.max(0, stepNs - busyAvg);
        long inSpan = Math.min(idle, ran == 0 ? 0 : spanIdle / ran);
        return new Iteration(i, its.start(i), its.stop(i), aggregated, all.kernels(), all.kernelNs(), all.tcNs(),
                all.memoryNs(), dataLoader == null ? Iteration.UNKNOWN : Math.min(its.stop(i) - its.start(i), dataLoader[i]),
                sync == null ? Iteration.UNKNOWN : sync[i], idle, all.ran() ? all.first() : Iteration.UNKNOWN,
                all.ran() ? all.last() : Iteration.UNKNOWN, stepNs, busyAvg, inSpan);
    }

    /** Per GPU over the aggregated steps, then averaged: see the class comment. */
    private void breakdown(StepWindow.Decision d, StepGpuSweep gpu, List<Integer> gpus, List<Integer> averaged,
                           double tcUtilPct, ProfileFacts.Builder out) {
        long[] dur = d.durations();
        long wall = 0;
        for (int i = d.first(); i <= d.last(); i++) wall += dur[i];
        double[] pct = new double[Bucket.values().length];
        double util = 0;
        for (int device : gpus) {
            long[] t = new long[Bucket.values().length];
            long kernelCount = 0;
            long kernelNs = 0;
            long memoryOps = 0;
            long busy = 0;
            for (int i = d.first(); i <= d.last(); i++) {
                StepGpuSweep.Cell c = gpu.on(i, device);
                add(t, c, dur[i], i);
                kernelCount += c.kernels();
                kernelNs += c.kernelNs();
                memoryOps += c.memoryOps();
                busy += c.busyNs();
            }
            double u = Percent.of(t[Bucket.TC.ordinal()] + t[Bucket.KERNEL.ordinal()], wall);
            out.gpuUsage(new GpuUsage(device, kernelCount, kernelNs, memoryOps, busy, wall, u));
            if (!averaged.contains(device)) continue;
            for (Bucket b : Bucket.values()) pct[b.ordinal()] += Percent.of(t[b.ordinal()], wall);
            util += u;
        }
        int k = averaged.size();
        if (k == 0) { // no GPU ran work: the host alone
            long[] t = new long[Bucket.values().length];
            for (int i = d.first(); i <= d.last(); i++) add(t, StepGpuSweep.none(), dur[i], i);
            for (Bucket b : Bucket.values()) pct[b.ordinal()] = Percent.of(t[b.ordinal()], wall);
            k = 1;
        }
        out.breakdown(new TimeBreakdown(wall, tcUtilPct, util / k, pct[Bucket.TC.ordinal()] / k,
                pct[Bucket.KERNEL.ordinal()] / k, pct[Bucket.MEMORY.ordinal()] / k, pct[Bucket.DATALOADER.ordinal()] / k,
                pct[Bucket.IO.ordinal()] / k, pct[Bucket.CPU.ordinal()] / k, pct[Bucket.OTHER.ordinal()] / k));
    }

    /**
     * One step of one GPU into the buckets: its own work by priority (held to the step's duration when it outlasts
     * it on the host side), the rest to the host's data loading and I/O first, then split like its remaining time.
     */
    private void add(long[] t, StepGpuSweep.Cell c, long step, int i) {
        long tc = c.tcBusyNs();
        long kernel = c.kernelBusyNs() - tc;
        long memory = c.busyNs() - c.kernelBusyNs();
        long sum = tc + kernel + memory;
        if (sum > step && sum > 0) {
            tc = tc * step / sum;
            kernel = kernel * step / sum;
            memory = Math.max(0, step - tc - kernel);
            sum = step;
        }
        t[Bucket.TC.ordinal()] += tc;
        t[Bucket.KERNEL.ordinal()] += kernel;
        t[Bucket.MEMORY.ordinal()] += memory;
        long idle = step - sum;
        // While the host loads data or reads files it launches nothing: that time is the GPU's idle first (DLProf's
        // priority). The rest of the idle time is split like the host's remaining time in the step's CPU period (CPU
        // work, or nothing), among which the launches fall.
        long[] h = host == null ? new long[HOST_CATEGORIES] : host[i];
        long period = Math.max(1, i + 1 < its.count() ? its.start(i + 1) - its.start(i) : its.stop(i) - its.start(i));
        long dl = Math.min(h[HOST_DATALOADER], idle);
        long io = Math.min(h[HOST_IO], idle - dl);
        long rest = Math.max(1, period - h[HOST_DATALOADER] - h[HOST_IO]);
        long cpu = share(idle - dl - io, h[HOST_CPU], rest);
        t[Bucket.DATALOADER.ordinal()] += dl;
        t[Bucket.IO.ordinal()] += io;
        t[Bucket.CPU.ordinal()] += cpu;
        t[Bucket.OTHER.ordinal()] += idle - dl - io - cpu;
    }

    /** {@code part / whole} of {@code ns}, held to {@code ns}. */
    private static long share(long ns, long part, long whole) {
        return Math.min(ns, Math.round((double) ns * Math.min(part, whole) / whole));
    }

    /** DLProf's buckets, in priority order. */
    private enum Bucket { TC, KERNEL, MEMORY, DATALOADER, IO, CPU, OTHER }

    /**
     * What a rank contributes to a distributed job: each step's GPU activity (by launch) with its host-side collectives
     * (a GPU waiting for one is not idle), and its collectives by kind and place (kernels, host).
     */
    private void jobSteps(StepWindow.Decision d, StepGpuSweep gpu, ProfileFacts.Builder out) {
        int n = its.count();
        long[] dur = d.durations();
        for (int i = 0; i < n; i++) {
            StepGpuSweep.Cell c = gpu.all(i);
            long dl = dataLoader == null ? 0 : Math.min(its.stop(i) - its.start(i), dataLoader[i]);
            out.stepActivity(new StepActivity(numbers[i], its.start(i), dur[i], c.computeNs(), c.commNs(), c.exposedCommNs(),
                    dl, Math.max(0, dur[i] - c.activeNs())));
            for (boolean host : new boolean[] {false, true}) {
                for (CollectiveKind kind : CollectiveKind.values()) {
                    if (c.kindCalls(kind, host) > 0) {
                        out.collectiveCalls(new CollectiveCalls(numbers[i], kind, host, c.kindCalls(kind, host),
                                c.kindTime(kind, host), c.kindBusy(kind, host), c.kindBytes(kind, host)));
                    }
                }
            }
        }
    }

    /** The GPUs a profile lists plus those that ran work, sorted. */
    public static List<Integer> devices(java.util.Collection<Integer> listed, StepGpuSweep gpu) {
        java.util.TreeSet<Integer> all = new java.util.TreeSet<>(listed);
        all.addAll(gpu.devices());
        return new ArrayList<>(all);
    }
}
