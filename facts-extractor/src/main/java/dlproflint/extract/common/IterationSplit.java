package dlproflint.extract.common;

import dlproflint.facts.MeanSd;
import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.IterationCandidate;
import dlproflint.facts.IterationSummary;

import java.util.ArrayList;
import java.util.List;

/**
 * The result of {@link IterationDiscovery}: the iteration windows, how they were found, what was
 * contradictory on the way, and (when nothing split the profile) the families that might.
 */
public final class IterationSplit {
    private final String method;
    private final String keyNode;
    private final String keyNodeSource;
    private final boolean found;
    private Iterations iterations;
    private final long[] gpuStarts;
    private final List<ExtractionWarning> warnings;
    private final List<IterationCandidate> candidates;
    /** each iteration's own number ({@code ProfilerStep#N}'s N) when numbered markers split the profile; else null */
    private long[] numbers;

    IterationSplit(String method, String keyNode, String keyNodeSource, boolean found, Iterations iterations,
                   long[] gpuStarts, List<ExtractionWarning> warnings, List<IterationCandidate> candidates) {
        this.method = method;
        this.keyNode = keyNode;
        this.keyNodeSource = keyNodeSource;
        this.found = found;
        this.iterations = iterations;
        this.gpuStarts = gpuStarts;
        this.warnings = new ArrayList<>(warnings);
        this.candidates = List.copyOf(candidates);
    }

    /** No stop depends on the capture's end ({@link #endCap}). */
    private static final long CLOSED = Long.MIN_VALUE;
    /**
     * How the last iteration's stop depends on the capture's end: it is the end, capped at this (the split was made
     * before the end was known, {@link IterationDiscovery#decideOpenEnded}); {@link #CLOSED}: it does not depend on it.
     */
    private long endCap = CLOSED;
    private long profileStart;

    /** The last iteration lasts until the capture's end (no earlier than {@code profileStart}), at most until {@code cap}. */
    IterationSplit openEnded(long profileStart, long cap) {
        this.profileStart = profileStart;
        this.endCap = cap;
        return this;
    }

    /** The last stop depends on the end as {@code other}'s does. */
    IterationSplit endsLike(IterationSplit other) {
        return openEnded(other.profileStart, other.endCap);
    }

    /**
     * Gives the capture's end to a split decided before it was known: the last iteration's stop becomes the end
     * (capped as the decision said, no earlier than the iteration's start). The iterations' starts do not change.
     */
    public IterationSplit endAt(long profileEnd) {
        if (endCap == CLOSED) return this;
        iterations = iterations.withLastStop(Math.min(Math.max(profileStart, profileEnd), endCap));
        endCap = CLOSED;
        return this;
    }

    /** The markers' numbers as attached, or null. */
    public long[] markerNumbers() {
        return numbers;
    }

    /** Attaches the markers' numbers (one per iteration), so that ranks of one job align by step number. */
    IterationSplit numbered(long[] stepNumbers) {
        if (stepNumbers == null || stepNumbers.length != iterations.count()) return this;
        for (int i = 0; i < stepNumbers.length; i++) {
            // unnumbered instances (-1) or numbers against time: positions are the safer alignment
            if (stepNumbers[i] < 0 || stepNumbers[i] > Integer.MAX_VALUE || (i > 0 && stepNumbers[i] <= stepNumbers[i - 1])) return this;
        }
        numbers = stepNumbers.clone();
        return this;
    }

    /**
     * Each iteration's number: its marker's ({@code ProfilerStep#551}) when numbered markers split the profile, else
     * its position in the capture.
     */
    public int[] stepNumbers() {
        int[] out = new int[iterations.count()];
        for (int i = 0; i < out.length; i++) out[i] = numbers == null ? i : (int) numbers[i];
        return out;
    }

    /** One of {@link IterationSummary#METHODS}. */
    public String method() {
        return method;
    }

    public String keyNode() {
        return keyNode;
    }

    public boolean found() {
        return found;
    }

    public Iterations iterations() {
        return iterations;
    }

    /**
     * Where GPU work of each iteration starts, from GPU-side copies of the step markers (Kineto's
     * {@code gpu_user_annotation} {@code ProfilerStep#N}), or null: GPU work launched late in step N runs
     * into step N+1's CPU time and still belongs to step N.
     */
    public long[] gpuStarts() {
        return gpuStarts == null ? null : gpuStarts.clone();
    }

    /** Contradictions met and the choices made, as reader warnings. */
    public List<ExtractionWarning> warnings() {
        return List.copyOf(warnings);
    }

    public List<IterationCandidate> candidates() {
        return candidates;
    }

    /**
     * The user's aggregation range ({@code --iter-start/--iter-stop}, inclusive, null = open) clamped to the
     * iterations found; a range reaching outside them adds a warning.
     */
    public int[] aggregation(Integer iterStart, Integer iterStop) {
        int[] r = iterations.range(iterStart, iterStop);
        boolean outside = iterStart != null && (iterStart < 0 || iterStart >= iterations.count())
                || iterStop != null && (iterStop < 0 || iterStop >= iterations.count())
                || iterStart != null && iterStop != null && iterStart > iterStop;
        if (outside) {
            warnings.add(new ExtractionWarning("iteration-range", "iteration range " + text(iterStart) + "-" + text(iterStop)
                    + " reaches outside the " + iterations.count() + " iteration" + (iterations.count() == 1 ? "" : "s")
                    + " found (0-" + (iterations.count() - 1) + "); aggregating " + r[0] + "-" + r[1]));
        }
        return r;
    }

    private static String text(Integer v) {
        return v == null ? "" : v.toString();
    }

    /** The summary fact for an aggregation range (from {@link #aggregation}): mean and spread of the aggregated durations. */
    public IterationSummary summary(int[] range) {
        MeanSd d = new MeanSd();
        for (int i = range[0]; i <= range[1]; i++) d.add(iterations.stop(i) - iterations.start(i));
        return new IterationSummary(keyNode, found, keyNodeSource, iterations.count(), range[0], range[1], d.mean(), d.sd(),
                method, candidates);
    }
}
