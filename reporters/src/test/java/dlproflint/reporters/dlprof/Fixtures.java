package dlproflint.reporters.dlprof;

import dlproflint.facts.ApiStat;
import dlproflint.facts.Direction;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KernelFact;
import dlproflint.facts.MemcpyStat;
import dlproflint.facts.MemsetStat;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.StackFrame;
import dlproflint.facts.Stat;
import dlproflint.facts.SystemInfo;
import dlproflint.facts.TimeBreakdown;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A small hand-built profile in the shape of the DLProf 1.8 corpus (numbers partly taken from
 * mohanadodema-dlprof/w_Relu), with the awkward cases: an unassociated op without direction, data
 * type or stack; an op name holding a quote and a comma; a data type holding a comma; a multi-line
 * stack trace; a kernel launched on two devices; a memory operation among the kernel facts.
 */
final class Fixtures {
    private Fixtures() {
    }

    static final String CONV_NAME = "/module/Net::forward/Conv2d::_call_impl/conv2d";
    static final String LINEAR_NAME = "/module/Net::forward/Linear::_call_impl/linear";
    static final String WEIRD_NAME = "/module/say \"hi\", there/x";

    static ProfileFacts.Builder builder() {
        ProfileFacts.Builder b = ProfileFacts.builder()
                .profile(new ProfileInfo("p.sqlite", "nsys-sqlite", "2021.3.2.4-027534f", "2.9.1", 1000, 46915099532L))
                .system(new SystemInfo("AMD EPYC 7402 24-Core Processor", "host", "510.47.03", "11.6", "8.3.0",
                        "pytorch", "1.11.0a0+b6df043", -1, 0))
                .gpu(new GpuInfo(0, "NVIDIA A100-SXM4-40GB", 108, 40L << 30, 8, 0, -1))
                .gpu(new GpuInfo(1, "NVIDIA A100-SXM4-40GB", 108, 40L << 30, 8, 0, -1))
                .breakdown(new TimeBreakdown(46915098532L, 35.4321, 0.0578, 0.0093, 0.0485, 0.012, 21.94, 0.0,
                        0.98, 76.91))
                .iterationSummary(new IterationSummary("loss", true, "user", 939, 200, 400, 233408450.38, 13499191.26, IterationSummary.USER_KEY_NODE, List.of()));
        b.op(op("CONV2D_1", CONV_NAME, Direction.FPROP, "conv2d", 1, Stat.of(2306368), Stat.of(309276),
                Stat.of(765282), Stat.of(1674141), true, false, 0, 24, "float32",
                // facts hold stacks innermost first; DLProf's reports print the entry point first
                List.of(new StackFrame("/x/torch/nn/modules/module.py", 1102, "_call_impl"),
                        new StackFrame("dummy_network.py", 42, "<module>"))));
        b.op(op("LINEAR_1", LINEAR_NAME, Direction.FPROP, "linear", 1, Stat.of(544897), Stat.of(13632),
                Stat.of(411203), Stat.of(343775), true, true, 6752, 2, "float16",
                List.of(new StackFrame("net.py", 28, "forward"))));
        b.op(op("RELU_1", "/module/Net::forward/relu", Direction.FPROP, "relu", 2, new Stat(2, 300, 100, 200),
                new Stat(2, 31, 10, 21), new Stat(2, 269, 90, 179), Stat.EMPTY, false, false, 0, 2, "float32",
                List.of(new StackFrame("a.py", 1, "f"))));
        b.op(op("RELU_2", "/module/Net::forward/relu[2]", Direction.FPROP, "relu", 1, Stat.of(50), Stat.of(8),
                Stat.of(40), Stat.EMPTY, false, false, 0, 1, "float32", List.of(new StackFrame("a.py", 2, "f"))));
        b.op(op("CUDADEVICESYNCHRONIZE_V3020_1", "unassociated_cudaDeviceSynchronize_v3020", Direction.NA,
                "cudaDeviceSynchronize_v3020", 1, Stat.of(3686), Stat.EMPTY, Stat.EMPTY, Stat.EMPTY, false, false,
                0, 0, null, List.of()));
        b.op(op("WEIRD_1", WEIRD_NAME, Direction.BPROP, "custom", 3, new Stat(3, 10, 3, 4), Stat.EMPTY,
                new Stat(3, 10, 3, 4), Stat.EMPTY, false, false, 0, 0, "float16,float32",
                List.of(new StackFrame("y.py", 7, "g"), new StackFrame("x.py", 0, null))));

        // kernel facts in no particular order: the reports sort them
        b.kernel(kernel("implicit_convolve_sgemm", "CONV2D_1", 0, new Stat(3, 65439, 21504, 21984),
                new Stat(3, 32059, 6868, 17748), false));
        b.kernel(kernel("fft2d_r2c_32x32", "CONV2D_1", 0, new Stat(4, 40926, 9599, 10848),
                new Stat(4, 22024, 3866, 8324), false));
        b.kernel(kernel("[CUDA memset]", "CONV2D_1", 0, Stat.of(2497), Stat.of(3000), false));
        b.kernel(kernel("volta_h884gemm_64x64_nt", "LINEAR_1", 0, Stat.of(6752), Stat.of(7864), true));
        b.kernel(kernel("unrolled_elementwise_kernel", "LINEAR_1", 0, Stat.of(3680), Stat.of(8857), false));
        b.kernel(kernel("vectorized_elementwise_kernel", "RELU_1", 0, new Stat(2, 31, 10, 21),
                new Stat(2, 16000, 7000, 9000), false));
        b.kernel(kernel("vectorized_elementwise_kernel", "RELU_1", 1, Stat.of(5), Stat.of(100), false));

        b.memcpyStat(new MemcpyStat("cudaMemcpyAsync", "HtoD", "Pageable", "Device", 11, 600000,
                new Stat(11, 50000, 1000, 9000), 11));
        b.memcpyStat(new MemcpyStat("cudaMemcpy", "HtoD", "Pageable", "Device", 2, 40312,
                new Stat(2, 7698, 3000, 4698), 2));
        b.memsetStat(new MemsetStat("cudaMemsetAsync", "Device", 4, 4096, new Stat(4, 8992, 2000, 2497)));
        b.apiStat(new ApiStat("cudaMemcpyAsync", "memcpy", new Stat(11, 118453, 5000, 20000)));
        b.apiStat(new ApiStat("cudaMemcpy", "memcpy", new Stat(2, 17305, 8000, 9305)));
        b.apiStat(new ApiStat("cudaMemsetAsync", "memset", new Stat(4, 31095, 5000, 10000)));
        b.apiStat(new ApiStat("cudaLaunchKernel", "launch", new Stat(59, 341122, 2844, 17748)));
        return b;
    }

    static ProfileFacts facts() {
        return builder().build();
    }

    /** The same facts, aggregated over one iteration (as the corpus profile). */
    static ProfileFacts oneIteration() {
        return builder().iterationSummary(IterationSummary.none(1, 2840562182.0, List.of())).build();
    }

    static OpFact op(String id, String name, Direction dir, String type, long calls, Stat cpu, Stat gpu,
                     Stat overhead, Stat idle, boolean eligible, boolean usesTc, long tcGpu, long kernelCalls,
                     String dataType, List<StackFrame> stack) {
        return new OpFact(id, name, type, dir, calls, cpu, gpu, overhead, idle, eligible, usesTc, tcGpu,
                kernelCalls, dataType, null, stack);
    }

    static KernelFact kernel(String name, String opId, int device, Stat gpu, Stat api, boolean tc) {
        return new KernelFact(name, "void " + name + "(int)", opId, device, gpu, api, tc, "1,1,1", "128,1,1");
    }

    static String csv(DlprofReport report) throws Exception {
        return render(report, DlprofFormat.CSV);
    }

    static String render(DlprofReport report, DlprofFormat format) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DlprofReports.render(report, format, out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
