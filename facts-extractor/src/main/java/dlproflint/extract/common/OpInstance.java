package dlproflint.extract.common;

import dlproflint.facts.Direction;
import dlproflint.facts.StackFrame;

import java.util.List;

/**
 * One call of an op while it is open: its CPU range, the CUDA API time inside it and the GPU intervals of
 * the work it launched. Lives only until the range closes, then folds into an {@link OpTable} row.
 */
public final class OpInstance {
    public final String key;
    public final String name;
    public final String type;
    public final Direction direction;
    public final int iteration;
    public final long cpuStart;
    public long cpuEnd;
    public long apiNs;
    public long kernelCalls;
    public long tcNs;
    public boolean usesTc;
    public final IntervalUnion gpu = new IntervalUnion();
    public String dataType;
    public String inputShapes;
    public List<StackFrame> stack = List.of();

    public OpInstance(String key, String name, String type, Direction direction, int iteration, long cpuStart,
                      long cpuEnd) {
        this.key = key;
        this.name = name;
        this.type = type;
        this.direction = direction;
        this.iteration = iteration;
        this.cpuStart = cpuStart;
        this.cpuEnd = cpuEnd;
    }

    public long cpuNs() {
        return Math.max(0, cpuEnd - cpuStart);
    }

    /** DLProf: GPU time of an op call is its GPU work flattened (overlapping kernels on other streams counted once). */
    public long gpuNs() {
        return gpu.covered();
    }

    /** DLProf: time in the range not spent in CUDA API calls. */
    public long cpuOverheadNs() {
        return Math.max(0, cpuNs() - apiNs);
    }

    /** DLProf: gaps between the op's GPU work, from its first GPU start to its last GPU end. */
    public long gpuIdleNs() {
        if (gpu.isEmpty()) return 0;
        return Math.max(0, gpu.max() - gpu.min() - gpu.covered());
    }

    public void addGpu(long start, long end, boolean kernel, boolean tc) {
        gpu.add(start, end);
        if (kernel) {
            kernelCalls++;
            if (tc) {
                usesTc = true;
                tcNs += Math.max(0, end - start);
            }
        }
    }
}
