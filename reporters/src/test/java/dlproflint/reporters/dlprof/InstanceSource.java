package dlproflint.reporters.dlprof;

import dlproflint.extract.FileSniff;
import dlproflint.extract.InstanceSink;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.Direction;
import dlproflint.facts.KernelInstance;
import dlproflint.facts.ProfileFacts;

import java.nio.file.Path;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A profile reader for tests whose per-launch stream is generated: {@code count} instances made by a
 * function of their index, optionally failing after {@code failAfter} instances, optionally running a
 * probe after {@code probeAfter} instances (to look at the output while the stream is still open).
 */
final class InstanceSource implements ProfileReader {
    private final long count;
    private final IntFunction<KernelInstance> make;
    private final long failAfter;
    private final long probeAfter;
    private final Runnable probe;
    ReadOptions seenOptions;
    Path seenFile;

    InstanceSource(long count, IntFunction<KernelInstance> make, long failAfter, long probeAfter, Runnable probe) {
        this.count = count;
        this.make = make;
        this.failAfter = failAfter;
        this.probeAfter = probeAfter;
        this.probe = probe;
    }

    static InstanceSource of(List<KernelInstance> instances) {
        return new InstanceSource(instances.size(), instances::get, -1, -1, null);
    }

    @Override
    public String format() {
        return "test-stream";
    }

    @Override
    public boolean accepts(Path file, FileSniff sniff) {
        return false;
    }

    @Override
    public ProfileFacts read(Path file, ReadOptions options) throws ProfileException {
        throw new ProfileException(file, "test reader has no facts");
    }

    @Override
    public void streamInstances(Path file, ReadOptions options, InstanceSink sink) throws ProfileException {
        seenFile = file;
        seenOptions = options;
        for (int i = 0; i < count; i++) {
            if (i == failAfter) throw new ProfileException(file, "database disk image is malformed");
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
