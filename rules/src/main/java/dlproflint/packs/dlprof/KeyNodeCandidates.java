package dlproflint.packs.dlprof;

import dlproflint.findings.Units;
import dlproflint.facts.IterationCandidate;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.OpFact;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Proposes key nodes when a profile could not be split into iterations, following DLProf's manual
 * procedure (user guide ch. 3.3 and 7: "a key node is an op node that is executed only once each
 * iteration, preferably the very first operation of each iteration"; inspect the detailed report and
 * pick one).
 *
 * <p>In a run of N steps every op of the step runs k·N times for some whole k. So the step count is
 * the largest call count that divides the call counts of (nearly) all repeated ops, and the ops
 * called exactly N times run once per step: those are the candidates. Ops whose name says "step",
 * "iter" or "batch" come first (DLProf's TensorFlow default key node is {@code global_step}), then by
 * op id. (The fact model has no per-op first-start time, so "near the start of the step" cannot be
 * ranked yet; a reader-provided first-call timestamp would be the next improvement.)
 *
 * <p>These call-count candidates are the fallback for readers that cannot time instances (DLProf databases);
 * nsys and Kineto readers time every instance and rank their own candidates
 * ({@link IterationSummary#candidates()}, see {@link #timed}).
 *
 * <p>Called from {@code no-iterations.drl}.
 */
public final class KeyNodeCandidates {
    private KeyNodeCandidates() {
    }

    /**
     * @param stepsPerRun the detected number of steps (N)
     * @param coveragePct share of repeated ops whose call count is a multiple of N
     * @param candidates  ops called exactly N times, best first (at most {@code max})
     * @param repeatedOps ops called more than once
     * @param namedOps    ops from annotations (not {@code unassociated_*})
     */
    public record Proposal(long stepsPerRun, double coveragePct, List<Candidate> candidates,
                           long repeatedOps, long namedOps) {
        /** Candidate op ids joined for a message: {@code 'STEP_1', 'ZERO_GRAD_1'}. */
        public String candidateList() {
            List<String> parts = new ArrayList<>();
            for (Candidate c : candidates) parts.add(c.describe());
            return String.join(", ", parts);
        }

        public List<String> candidateIds() {
            List<String> ids = new ArrayList<>();
            for (Candidate c : candidates) ids.add(c.opId());
            return ids;
        }

        public boolean hasCandidates() {
            return !candidates.isEmpty();
        }

        public Candidate best() {
            return candidates.isEmpty() ? null : candidates.get(0);
        }
    }

    /** One key-node candidate. */
    public record Candidate(String opId, String name, long calls, OpFact op) {
        String describe() {
            return opId.equals(name) ? "'" + opId + "'" : "'" + opId + "' (" + name + ")";
        }
    }

    /**
     * Analyses the ops.
     *
     * @param ops            every OpFact of the profile (any order; the reader's order breaks ties)
     * @param minCoveragePct share of repeated ops that must fit the step count (e.g. 80)
     * @param max            most candidates to return
     */
    public static Proposal propose(Collection<?> ops, double minCoveragePct, double maxCandidates) {
        int max = (int) maxCandidates;
        List<OpFact> named = new ArrayList<>();
        for (Object o : ops) {
            if (o instanceof OpFact op && !op.unassociated() && op.calls() > 0) named.add(op);
        }
        List<OpFact> repeated = new ArrayList<>();
        for (OpFact op : named) if (op.calls() > 1) repeated.add(op);
        if (repeated.isEmpty()) return new Proposal(named.isEmpty() ? 0 : 1, 100, List.of(), 0, named.size());

        // Largest call count that divides the call counts of enough repeated ops = steps in the capture.
        TreeSet<Long> counts = new TreeSet<>(Comparator.reverseOrder());
        for (OpFact op : repeated) counts.add(op.calls());
        long steps = 0;
        double coverage = 0;
        for (long c : counts) {
            long fit = repeated.stream().filter(op -> op.calls() % c == 0).count();
            double pct = dlproflint.facts.Percent.of(fit, repeated.size()); // the ops that fit are among the repeated ones
            if (pct >= minCoveragePct) {
                steps = c;
                coverage = pct;
                break;
            }
        }
        if (steps == 0) return new Proposal(0, 0, List.of(), repeated.size(), named.size());

        final long n = steps;
        List<Candidate> cands = new ArrayList<>();
        for (int i = 0; i < named.size(); i++) {
            OpFact op = named.get(i);
            if (op.calls() == n) cands.add(new Candidate(op.id(), op.name(), op.calls(), op));
        }
        // Name hints first, then by op id: facts reach the rule through working memory, which keeps no
        // insertion order, so the order must come from the facts themselves to be deterministic.
        cands.sort(Comparator.comparingInt((Candidate c) -> stepHint(c.name()) ? 0 : 1)
                .thenComparing(Candidate::opId));
        if (cands.size() > max) cands = new ArrayList<>(cands.subList(0, Math.max(0, max)));
        return new Proposal(n, coverage, List.copyOf(cands), repeated.size(), named.size());
    }

    /** The reader's timed candidates (best first), at most {@code max}. */
    public static List<IterationCandidate> timed(IterationSummary s, double max) {
        List<IterationCandidate> c = s.candidates();
        return c.size() > max ? c.subList(0, Math.max(0, (int) max)) : c;
    }

    /** {@code 'iter_N' (12 times, every 41.0 ms ± 3.0%, spanning 98.0% of the run), 'x' (2 times, 3.1 s apart, ...)} */
    public static String describe(List<IterationCandidate> candidates) {
        List<String> parts = new ArrayList<>();
        for (IterationCandidate c : candidates) {
            String period = c.instances() == 2 ? Units.duration(c.medianPeriodNs()) + " apart"
                    : "every " + Units.duration(c.medianPeriodNs()) + " \u00b1 " + Units.pct(c.periodVariationPct());
            parts.add("'" + c.keyNode() + "' (" + c.instances() + " times, " + period + ", spanning " + Units.pct(c.coveragePct())
                    + " of the run)");
        }
        return String.join(", ", parts);
    }

    public static List<String> keyNodes(List<IterationCandidate> candidates) {
        List<String> out = new ArrayList<>();
        for (IterationCandidate c : candidates) out.add(c.keyNode());
        return out;
    }

    static boolean stepHint(String name) {
        if (name == null) return false;
        String s = name.toLowerCase(Locale.ROOT);
        return s.contains("step") || s.contains("iter") || s.contains("batch");
    }
}
