package dlproflint.ruletests;

import dlproflint.engine.run.CauseLinks;
import dlproflint.findings.Finding;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 24 item 3 on one profile's findings: no two findings claim the same lost time, and no finding reports an
 * impact that rounds to zero. Measured as: the savings of the findings that draw on one pool of time (GPU idle, FP32
 * kernels: {@link CauseLinks#pool}) add up to no more than the time measured there (the idle GPU its symptoms measured;
 * the largest FP32 finding); all savings
 * of the profile add up to no more than its step; every impact shows more than 0.0 % of the step lost.
 */
final class SavingsCountedOnce {
    /** Rounding of the shares each finding reports. */
    static final double TOLERANCE_PCT = 0.5;

    private SavingsCountedOnce() {
    }

    /** The violations, one line each; empty when none. */
    static List<String> violations(List<Finding> findings) {
        List<String> out = new ArrayList<>();
        Map<String, double[]> pools = new LinkedHashMap<>();
        Map<String, List<String>> who = new LinkedHashMap<>();
        double total = 0;
        // one rule's findings on different GPUs are parallel time: the largest of them counts, not their sum
        Map<String, Double> perGpuRule = new LinkedHashMap<>();
        for (Finding f : findings) {
            if (f.impact() == null) continue;
            if (f.impact().roundsToZero()) {
                out.add(f.ruleId() + " reports an impact that rounds to zero (" + f.impact().model() + ")");
            }
            if ("gpu".equals(f.subject().kind())) {
                Double had = perGpuRule.get(f.ruleId());
                if (had != null && had >= f.impact().savingPct()) continue;
                double add = f.impact().savingPct() - (had == null ? 0 : had);
                perGpuRule.put(f.ruleId(), f.impact().savingPct());
                total += add;
                String pool = CauseLinks.pool(f);
                if (pool != null) {
                    double[] p = pools.computeIfAbsent(pool, k -> new double[4]);
                    p[0] += add;
                    p[3] = Math.max(p[3], f.impact().savingPct());
                    if (CauseLinks.symptom(f)) p[2] = Math.max(p[2], f.impact().sharePct());
                    p[1] = Math.max(p[1], f.impact().sharePct());
                    who.computeIfAbsent(pool, k -> new ArrayList<>()).add(f.ruleId()
                            + String.format(Locale.ROOT, " %.1f%%", f.impact().savingPct()));
                }
                continue;
            }
            total += f.impact().savingPct();
            String pool = CauseLinks.pool(f);
            if (pool == null) continue;
            double[] p = pools.computeIfAbsent(pool, k -> new double[4]);
            p[0] += f.impact().savingPct();
            p[3] = Math.max(p[3], f.impact().savingPct());
            // the pool's time: what its symptoms measured (the idle GPU), else its largest finding
            if (CauseLinks.symptom(f)) p[2] = Math.max(p[2], f.impact().sharePct());
            p[1] = Math.max(p[1], f.impact().sharePct());
            who.computeIfAbsent(pool, k -> new ArrayList<>()).add(f.ruleId()
                    + String.format(Locale.ROOT, " %.1f%%", f.impact().savingPct()));
        }
        for (Map.Entry<String, double[]> e : pools.entrySet()) {
            double[] p = e.getValue();
            // what the symptoms measured (or the largest single saving: two measures of one idle time may differ a little)
            double there = Math.max(p[3], p[2] > 0 ? p[2] : "idle".equals(e.getKey()) ? 100 : p[1]);
            if (p[0] > there + TOLERANCE_PCT) {
                out.add(String.format(Locale.ROOT, "the %s pool's savings add up to %.1f%% of the step, more than the %.1f%% "
                        + "measured there: %s", e.getKey(), p[0], there, who.get(e.getKey())));
            }
        }
        if (total > 100 + TOLERANCE_PCT) {
            out.add(String.format(Locale.ROOT, "the findings' savings add up to %.1f%% of the step", total));
        }
        return out;
    }
}
