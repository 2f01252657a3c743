package dlproflint.reporters.dlprof;

import dlproflint.facts.Direction;
import dlproflint.facts.InstanceSink;
import dlproflint.facts.InstanceSource;
import dlproflint.facts.KernelInstance;

import java.io.IOException;
import java.util.List;
import java.util.function.IntFunction;

/**
 * An instance stream for tests, generated: {@code count} instances made by a
 * function of their index, optionally failing after {@code failAfter} instances, optionally running a
 * probe after {@code probeAfter} instances (to look at the output while the stream is still open).
 */
final class GeneratedInstances implements InstanceSource {
    private final long count;
    private final IntFunction<KernelInstance> make;
    private final long failAfter;
    private final long probeAfter;
    private final Runnable probe;

    GeneratedInstances(long count, IntFunction<KernelInstance> make, long failAfter, long probeAfter, Runnable probe) {
        this.count = count;
        this.make = make;
        this.failAfter = failAfter;
        this.probeAfter = probeAfter;
        this.probe = probe;
    }

    static GeneratedInstances of(List<KernelInstance> instances) {
        return new GeneratedInstances(instances.size(), instances::get, -1, -1, null);
    }

    @Override
    public void forEach(InstanceSink sink) throws IOException {
        for (int i = 0; i < count; i++) {
            if (i == failAfter) throw new IOException("database disk image is malformed");
            if (i == probeAfter && probe != null) probe.run();
            sink.accept(make.apply(i));
        }
    }

    static KernelInstance conv(int i) {
        return new KernelInstance("kernel", 0, "CONV2D_1", Fixtures.CONV_NAME, Direction.FPROP, "conv2d",
                "implicit_convolve_sgemm", "void cudnn::detail::implicit_convolve_sgemm<float, int, (int)128>(int, int)",
                0, 2835448822L + 1000L * i, 21951, 2835431565L + 1000L * i, 17748, false, 900, 1, 1, 8, 8, 1,
                "float32", "<N:32, C:3, H:32, W:32>; <K:6, C:3, R:3, S:3>; <6>", "<N:32, K:6, P:30, Q:30>");
    }
}
