package dlproflint.engine.run;

import dlproflint.findings.Finding;
import dlproflint.findings.Impact;
import dlproflint.findings.Severity;
import dlproflint.findings.Units;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Causes over symptoms: after every pack has linted one profile, findings that claim the same lost time have it
 * counted once. Each finding with a measured {@link Impact} claims its saving (a share of the step or range) from one
 * pool of time:
 * <ul>
 *   <li><b>GPU idle</b>, claimed in three tiers: the <i>causes</i> (findings of the categories in {@link #IDLE_CAUSES}:
 *   data loading, host syncs, blocking copies, allocations, communication; together no more than the idle time the
 *   symptoms measured), then the <i>launch overhead</i>
 *   ({@link #LAUNCH}: CPU-bound launches, CUDA-graph candidates, launch-bound and short kernels), then the
 *   <i>symptoms</i> ({@link #IDLE}: low utilization, the idle breakdown, GPU gaps);</li>
 *   <li><b>FP32 math</b> ({@link #FP32_MATH}): AMP, TF32 and an op's data type are alternative fixes of the same
 *   kernels.</li>
 * </ul>
 * Within a pool, a finding keeps what the findings before it (an earlier tier, or a larger saving in its own tier)
 * have not claimed: the symptom is reported once, refers to its causes, and its severity follows what is left of its
 * saving, so a symptom fully explained by a cause becomes a note pointing at it. Causes of different categories
 * (data loading, syncs) are taken to claim different time; causes of one category (nsys/sync-api and
 * pytorch/host-sync-in-step on the same calls) claim the same time. Shares, not nanoseconds, are compared, so a
 * finding per step and one over the run are measured alike.
 */
public final class CauseLinks {
    /** Categories whose findings name a cause of GPU idle time. */
    static final Set<String> IDLE_CAUSES = Set.of("input-pipeline", "synchronization", "memory", "communication",
            "distributed");
    /** Launch overhead: a cause of idle time, and itself a symptom of host work the causes above name. */
    static final Set<String> LAUNCH = Set.of("pytorch/cpu-bound-launches", "pytorch/cuda-graph-candidate",
            "nsys/launch-bound", "pytorch/short-kernels");
    /** Symptoms: an idle GPU, measured without saying why. */
    static final Set<String> IDLE = Set.of("dlprof/underutilized-gpu", "pytorch/idle-breakdown", "nsys/gpu-gaps",
            "nsys/gpu-low-utilization");
    /** Causes of different categories that cost the same host-to-device copies (unpinned batches are pageable copies). */
    static final Set<String> SAME_COPIES = Set.of("pytorch/pin-memory-off", "nsys/pageable-async-memcpy", "nsys/sync-memcpy");
    /**
     * Causes whose saving holds host syncs that pytorch/host-sync-in-step names ({@code gradScalerSyncPoints} in the
     * evidence: GradScaler's inf check read on the host, which BF16 removes with the scaler): with such syncs they claim
     * GPU idle time with the synchronisation causes, as the same time.
     */
    static final Set<String> WITH_SYNCS = Set.of("pytorch/fp16-not-bf16");
    /** Alternative fixes of the same FP32 GEMM/convolution kernels. */
    static final Set<String> FP32_MATH = Set.of("dlprof/amp-not-used", "pytorch/tf32-off", "dlprof/bad-tensor-shape");

    private CauseLinks() {
    }

    /** The pool and tier a finding claims from; null when it overlaps nothing. */
    record Claim(String pool, int tier, String group) {
    }

    /**
     * The pool of time a finding's saving is claimed from ({@code idle}: GPU idle time, {@code fp32}: FP32 GEMM and
     * convolution kernels), or null when it overlaps no other finding's.
     */
    public static String pool(Finding f) {
        Claim c = claim(f);
        return c == null ? null : c.pool();
    }

    /** A symptom of an idle GPU (the pool's measure of idle time). */
    public static boolean symptom(Finding f) {
        Claim c = claim(f);
        return c != null && c.tier() == 2;
    }

    static Claim claim(Finding f) {
        if (f.impact() == null) return null;
        if (IDLE.contains(f.ruleId())) return new Claim("idle", 2, "symptom");
        if (LAUNCH.contains(f.ruleId())) return new Claim("idle", 1, "launch");
        if (SAME_COPIES.contains(f.ruleId())) return new Claim("idle", 0, "host-copies");
        if (WITH_SYNCS.contains(f.ruleId()) && f.evidence().get("gradScalerSyncPoints") instanceof Number n && n.longValue() > 0) {
            return new Claim("idle", 0, "synchronization");
        }
        if (f.category() != null && IDLE_CAUSES.contains(f.category()) && !f.ruleId().startsWith("budget/")) {
            return new Claim("idle", 0, f.category());
        }
        if (FP32_MATH.contains(f.ruleId())) return new Claim("fp32", 0, "fp32");
        return null;
    }

    /**
     * The findings of one profile with overlapping savings counted once; findings that claim nothing shared are
     * returned unchanged, in the same order. A finding whose saving shrinks gets its severity again from
     * {@code severity} (the run's pins and thresholds).
     */
    public static List<Finding> apply(List<Finding> findings, BiFunction<String, Impact, Severity> severity) {
        return countedOnce(withoutZeroImpacts(findings, severity), severity);
    }

    /**
     * No finding reports an impact that rounds to zero ({@link Impact#roundsToZero()}): its rule found a pattern that
     * costs nothing measurable here (a few pageable copies in a long capture). The finding is kept — the pattern is
     * real, and DLProf's and nsys analyze's verdicts stay in parity — as a note without an impact whose recommendation
     * says its cost rounds to zero, instead of a cost of "≈ 0".
     */
    static List<Finding> withoutZeroImpacts(List<Finding> findings, BiFunction<String, Impact, Severity> severity) {
        List<Finding> out = null;
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            boolean zero = f.impact() != null && f.impact().roundsToZero();
            if (zero && out == null) out = new ArrayList<>(findings.subList(0, i));
            if (!zero) {
                if (out != null) out.add(f);
                continue;
            }
            out.add(new Finding(f.ruleId(), f.packId(), f.packVersion(), Severity.NOTE,
                    f.category(), f.problem(), "Its cost rounds to zero in this profile (under 0.05% of the "
                    + (f.impact().basis() == Impact.Basis.STEP ? "step" : "range") + ": " + f.impact().model()
                    + "), so no saving is estimated. " + f.recommendation(),
                    f.evidence(), f.subject(), f.location(), f.helpUri(), f.profilePath(), f.fingerprint(), null,
                    f.messageId(), f.data()));
        }
        return out == null ? findings : out;
    }

    private static List<Finding> countedOnce(List<Finding> findings, BiFunction<String, Impact, Severity> severity) {
        Map<Finding, Claim> claims = new IdentityHashMap<>();
        List<Finding> order = new ArrayList<>();
        for (Finding f : findings) {
            Claim c = claim(f);
            if (c != null) {
                claims.put(f, c);
                order.add(f);
            }
        }
        if (order.size() < 2) return findings;
        order.sort(Comparator.comparing((Finding f) -> claims.get(f).pool())
                .thenComparingInt(f -> claims.get(f).tier())
                .thenComparing(Comparator.comparingDouble((Finding f) -> f.impact().savingPct()).reversed())
                .thenComparing(Finding::ruleId));
        Map<Finding, Finding> replaced = new IdentityHashMap<>();
        // per pool: the idle time its symptoms measured (the largest share; the whole step when no symptom fired):
        // together the causes cannot recover more
        Map<String, Double> budget = new LinkedHashMap<>();
        for (Finding f : order) {
            if (claims.get(f).tier() == 2) budget.merge(claims.get(f).pool(), f.impact().sharePct(), Math::max);
        }
        // per pool: the share each group has claimed, and which rules claimed it
        Map<String, Map<String, Double>> claimedByGroup = new LinkedHashMap<>();
        Map<String, Set<String>> claimants = new LinkedHashMap<>();
        // per pool: the share each rule has claimed in each group
        Map<String, Map<String, Double>> contributions = new LinkedHashMap<>();
        for (Finding f : order) {
            Claim c = claims.get(f);
            Map<String, Double> groups = claimedByGroup.computeIfAbsent(c.pool(), p -> new LinkedHashMap<>());
            Set<String> before = claimants.computeIfAbsent(c.pool(), p -> new LinkedHashSet<>());
            // an idle cause overlaps only its own category; a launch or symptom finding overlaps every claim before it
            // one rule's findings of different subjects (each GPU, each op) are different time: it never reduces itself
            Map<String, Double> groupsNow = withoutRule(groups, contributions.getOrDefault(c.pool(), Map.of()), f.ruleId());
            double taken = 0;
            List<String> by = new ArrayList<>();
            if (c.tier() == 0 && "idle".equals(c.pool())) {
                // a cause of another category claims other time, up to the idle time measured: what is left of it
                double sameCategory = groupsNow.getOrDefault(c.group(), 0.0);
                double all = 0;
                for (double v : groupsNow.values()) all += v;
                // (a cause alone may measure a little more than the symptom did: two measures of one idle time)
                double cap = Math.max(budget.getOrDefault(c.pool(), 100.0), f.impact().savingPct());
                double overBudget = Math.max(0, all + f.impact().savingPct() - cap);
                taken = Math.max(sameCategory, overBudget);
                if (taken > 0) by.addAll(sameCategory >= overBudget ? rulesOf(order, claims, replaced, f, c) : before);
            } else {
                for (double v : groupsNow.values()) taken += v;
                by.addAll(before);
            }
            by.remove(f.ruleId());
            double own = f.impact().savingPct();
            double left = Math.max(0, own - taken);
            Finding out = f;
            if (taken > 0 && left < own - 1e-9 && !by.isEmpty()) {
                out = reduced(f, c, left, by, severity);
                replaced.put(f, out);
            }
            groups.merge(c.group(), out.impact().savingPct(), Double::sum);
            contributions.computeIfAbsent(c.pool(), p -> new LinkedHashMap<>())
                    .merge(f.ruleId() + "\u0000" + c.group(), out.impact().savingPct(), Double::sum);
            if (out.impact().savingPct() > 0) before.add(f.ruleId());
        }
        if (replaced.isEmpty()) return findings;
        List<Finding> result = new ArrayList<>(findings.size());
        for (Finding f : findings) result.add(replaced.getOrDefault(f, f));
        return result;
    }

    /** The groups' claimed shares without what {@code ruleId}'s own findings claimed. */
    private static Map<String, Double> withoutRule(Map<String, Double> groups, Map<String, Double> byRule, String ruleId) {
        Map<String, Double> out = new LinkedHashMap<>(groups);
        for (Map.Entry<String, Double> e : byRule.entrySet()) {
            int cut = e.getKey().indexOf('\u0000');
            if (e.getKey().substring(0, cut).equals(ruleId)) out.merge(e.getKey().substring(cut + 1), -e.getValue(), Double::sum);
        }
        return out;
    }

    /** The rules before {@code f} in its pool's group that claimed a saving. */
    private static List<String> rulesOf(List<Finding> order, Map<Finding, Claim> claims, Map<Finding, Finding> replaced,
                                        Finding f, Claim c) {
        Set<String> out = new LinkedHashSet<>();
        for (Finding g : order) {
            if (g == f) break;
            Claim cg = claims.get(g);
            Finding now = replaced.getOrDefault(g, g);
            if (cg.pool().equals(c.pool()) && cg.group().equals(c.group()) && now.impact().savingPct() > 0) out.add(g.ruleId());
        }
        return new ArrayList<>(out);
    }

    private static Finding reduced(Finding f, Claim c, double leftPct, List<String> by,
                                   BiFunction<String, Impact, Severity> severity) {
        Impact i = f.impact();
        double saving = i.periodNs() * leftPct / 100.0;
        String causes = String.join(", ", by);
        Impact now = new Impact(i.lostNs(), i.basis(), i.periodNs(), saving, i.model() + "; counted once: "
                + Units.pct(i.savingPct() - leftPct) + " of the " + (i.basis() == Impact.Basis.STEP ? "step" : "range")
                + " it would recover is claimed by " + causes + ", reported there");
        String rec;
        if ("fp32".equals(c.pool())) {
            rec = "An alternative to " + causes + ", which claims the same kernels' time"
                    + (leftPct <= 0 ? " (counted there). " : " (counted there; this fix adds the rest). ");
        } else if (c.tier() == 0) {
            rec = "The same time as " + causes + (leftPct <= 0 ? " (counted there). " : " (counted there; this adds the rest). ");
        } else {
            rec = leftPct <= 0 ? "Explained by " + causes + ": fix that first; this finding adds no saving of its own. "
                    : "Partly explained by " + causes + " (fix that first). ";
        }
        rec += f.recommendation();
        return new Finding(f.ruleId(), f.packId(), f.packVersion(), severity.apply(f.ruleId(), now), f.category(),
                f.problem(), rec, f.evidence(), f.subject(), f.location(), f.helpUri(), f.profilePath(),
                f.fingerprint(), now, f.messageId(), f.data());
    }
}
