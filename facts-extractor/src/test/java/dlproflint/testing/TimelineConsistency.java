package dlproflint.testing;

import dlproflint.facts.GpuUsage;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationKernel;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.TimeBreakdown;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The consistency properties of the measurement layer (issue 23), asserted on any profile's facts: per step, the ops'
 * GPU time adds up to the step's GPU time and stays within its busy time where the step's work never overlapped
 * itself, the busy time within the GPU span, every utilization and share within 0-100 %, the breakdown adding to
 * 100 %.
 */
public final class TimelineConsistency {
    private TimelineConsistency() {
    }

    /** @return how many steps had GPU work (what the properties were checked on) */
    public static int check(ProfileFacts f, String label) {
        Map<Integer, Long> opTime = new HashMap<>();
        for (IterationKernel k : f.iterationKernels()) opTime.merge(k.iteration(), k.gpuTimeNs(), Long::sum);
        boolean sampled = f.warnings().stream().anyMatch(w -> w.code().equals("iteration-kernels-sampled"));
        boolean oneDevice = f.gpuUsage().stream().filter(GpuUsage::used).count() <= 1;
        int withWork = 0;
        for (Iteration it : f.iterations()) {
            String at = label + " step " + it.index();
            assertTrue(it.stepNs() >= 0, at + ": duration " + it.stepNs());
            assertTrue(it.gpuIdleNs() >= -1, at + ": idle " + it.gpuIdleNs());
            if (it.gpuStartNs() < 0) continue;
            withWork++;
            assertTrue(it.gpuEndNs() >= it.gpuStartNs(), at + ": span");
            assertTrue(it.gpuBusyNs() >= 0, at + ": busy measured");
            assertTrue(it.gpuBusyNs() <= it.gpuSpanNs(), at + ": busy " + it.gpuBusyNs() + " within the span " + it.gpuSpanNs());
            double util = it.gpuUtilizationPct();
            assertTrue(util >= 0 && util <= 100, at + ": utilization " + util);
            assertTrue(it.gpuSpanIdleNs() >= 0 && it.gpuSpanIdleNs() <= it.gpuIdleNs(), at + ": idle inside the span");
            if (oneDevice) {
                long sum = it.gpuTimeNs() + it.memoryTimeNs();
                assertTrue(it.gpuBusyNs() <= sum, at + ": busy " + it.gpuBusyNs() + " at most the work's total time " + sum);
                if (it.aggregated() && !sampled && !f.iterationKernels().isEmpty()) {
                    long ops = opTime.getOrDefault(it.index(), 0L);
                    assertEquals(it.gpuTimeNs(), ops, at + ": the ops' kernel time is the step's kernel time");
                    // without self-overlap (one stream at a time) the ops' GPU time fits in the step's busy time
                    if (it.gpuBusyNs() == sum) assertTrue(ops <= it.gpuBusyNs(), at + ": ops " + ops + " <= busy " + it.gpuBusyNs());
                }
            }
        }
        TimeBreakdown b = f.breakdown();
        for (double p : new double[] {b.tcUtilizationPct(), b.gpuUtilizationPct(), b.tcKernelPct(), b.nonTcKernelPct(),
                b.memoryPct(), b.dataloaderPct(), b.ioPct(), b.cpuPct(), b.otherPct()}) {
            assertTrue(p >= 0 && p <= 100, label + ": a share outside 0-100: " + b);
        }
        if (b.wallNs() > 0 && !"dlprof-db".equals(f.profile().format())) {
            double sum = b.tcKernelPct() + b.nonTcKernelPct() + b.memoryPct() + b.dataloaderPct() + b.ioPct() + b.cpuPct()
                    + b.otherPct();
            assertEquals(100.0, sum, 0.01, label + ": the breakdown adds up to 100 %: " + b);
        }
        for (GpuUsage u : f.gpuUsage()) {
            assertTrue(u.utilizationPct() >= 0 && u.utilizationPct() <= 100, label + ": " + u);
        }
        return withWork;
    }
}
