package dlproflint.reporters.html;

import dlproflint.findings.Evidence;
import dlproflint.findings.Finding;
import dlproflint.findings.Impact;
import dlproflint.findings.LintRun;
import dlproflint.findings.PackInfo;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import dlproflint.facts.Direction;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationKernel;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KernelFact;
import dlproflint.facts.MemcpyStat;
import dlproflint.facts.ModelConfig;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.StackFrame;
import dlproflint.facts.Stat;
import dlproflint.facts.SystemInfo;
import dlproflint.facts.TimeBreakdown;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Hand-built lint runs for the HTML report tests: a realistic one, a hostile one and a large one. */
final class SampleRuns {
    static final String HELP = "https://github.com/dlprof-lint/dlprof-lint/blob/main/docs/rules/dlprof/";

    /** Strings that are also markup, formulas or control characters (issue 7). */
    static final List<String> HOSTILE = List.of(
            "<script>window.__x=1</script>",
            "\"><img src=x onerror=\"document.title='pwned'\">",
            "=HYPERLINK(\"http://x\")",
            "ctl\u0000\u0007\u001b[31m\u0085\u202Eevil",
            "</style><script>document.title='pwned'</script>",
            "<svg onload=\"document.title='pwned'\"></svg>",
            "void cutlass::Kernel<cutlass::gemm::Gemm<float, 128>>(Params&) & more");

    private SampleRuns() {
    }

    static Stat stat(long count, long avg) {
        return new Stat(count, count * avg, avg * 8 / 10, avg * 13 / 10);
    }

    static RuleMetadata rule(String name, Severity sev, String category, String summary) {
        return new RuleMetadata("dlprof/" + name, "dlprof", "1.0.0", title(name), sev, category, "1.0.0", summary,
                HELP + name + ".md", List.of("pytorch", "tensorflow"), List.of("nsys-sqlite"), List.of(), "");
    }

    private static String title(String name) {
        String s = name.replace('-', ' ');
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    static Finding finding(RuleMetadata r, Severity sev, String problem, String rec, Map<String, Object> ev,
                           Subject subject, StackFrame loc, String path) {
        return finding(r, sev, problem, rec, ev, subject, loc, path, null);
    }

    static Finding finding(RuleMetadata r, Severity sev, String problem, String rec, Map<String, Object> ev,
                           Subject subject, StackFrame loc, String path, Impact impact) {
        return new Finding(r.id(), r.packId(), r.packVersion(), sev, r.category(), problem, rec, ev, subject, loc,
                r.helpUri(), path, Integer.toHexString((r.id() + subject.ref()).hashCode()), impact);
    }

    /** A PyTorch ResNet-50 style run on two GPUs, 14 iterations, aggregated 3..11. */
    static LintRun realistic() {
        String path = "runs/resnet50-amp-off/nsys_profile.sqlite";
        ProfileFacts.Builder b = ProfileFacts.builder()
                .profile(new ProfileInfo(path, "nsys-sqlite", "2023.4.1.97-234156", "3.11.1", 1_000_000_000L,
                        5_200_000_000L))
                .system(new SystemInfo("AMD EPYC 7742 64-Core Processor", "dgx-a100-07", "535.104.05", "12.2",
                        "8.9.5", "pytorch", "2.1.0", -1, 0))
                .gpu(new GpuInfo(0, "NVIDIA A100-SXM4-80GB", 108, 85_899_345_920L, 8, 0, 41_000_000_000L))
                .gpu(new GpuInfo(1, "NVIDIA A100-SXM4-80GB", 108, 85_899_345_920L, 8, 0, 39_000_000_000L))
                .gpu(new GpuInfo(2, "NVIDIA A100-SXM4-80GB", 108, 85_899_345_920L, 8, 0, -1))
                .gpuUsage(new GpuUsage(0, 48_210, 2_610_000_000L, 1_310, 2_750_000_000L, 4_200_000_000L, 65.5))
                .gpuUsage(new GpuUsage(1, 47_980, 2_380_000_000L, 1_290, 2_520_000_000L, 4_200_000_000L, 60.0))
                .breakdown(new TimeBreakdown(4_200_000_000L, 21.4, 62.7, 13.4, 49.3, 3.1, 17.9, 2.2, 9.6, 4.5))
                .modelConfig(new ModelConfig(2, false, false, false, false, false, false, true, false))
                .memcpyStat(new MemcpyStat("cudaMemcpyAsync", "HtoD", "Pageable", "Device", 1_200, 4_800_000_000L,
                        stat(1_200, 95_000), 800))
                .iterationSummary(new IterationSummary("aten::backward", true, "default", 14, 3, 11, 298_000_000,
                        41_000_000, IterationSummary.INFERRED_REPEATING_OP, List.of()));
        String[][] ops = {
                {"CONV2D_1", "model/layer1/0/conv1", "conv2d", "FPROP", "true", "false"},
                {"CONV2D_2", "model/layer1/0/conv2", "conv2d", "FPROP", "true", "true"},
                {"CONV2D_3", "model/layer2/0/conv1", "conv2d", "BPROP", "true", "false"},
                {"LINEAR_1", "model/fc", "linear", "FPROP", "true", "true"},
                {"BATCH_NORM_1", "model/layer1/0/bn1", "batch_norm", "FPROP", "false", "false"},
                {"RELU_1", "model/layer1/0/relu", "relu", "FPROP", "false", "false"},
                {"ADD_1", "model/layer1/0/add", "add", "BPROP", "false", "false"},
                {"MAX_POOL2D_1", "model/maxpool", "max_pool2d", "FPROP", "false", "false"},
                {"CROSS_ENTROPY_1", "loss/cross_entropy", "cross_entropy", "FPROP", "false", "false"},
                {"SGD_STEP_1", "optimizer/step", "sgd", "NA", "false", "false"},
                {"EMBEDDING_1", "model/embed", "embedding", "FPROP", "false", "false"},
                {"unassociated_memcpy", "unassociated_memcpy", "cuda", "NA", "false", "false"}};
        for (int i = 0; i < ops.length; i++) {
            String[] o = ops[i];
            long gpuAvg = 9_000_000L / (i + 1);
            boolean el = Boolean.parseBoolean(o[4]), tc = Boolean.parseBoolean(o[5]);
            b.op(new OpFact(o[0], o[1], o[2], Direction.valueOf(o[3]), 14, stat(14, gpuAvg / 3), stat(14, gpuAvg),
                    stat(14, 40_000), stat(14, 15_000), el, tc, tc ? 14 * gpuAvg * 8 / 10 : 0, 14 * 3L, "float32",
                    "[[64, 3, 224, 224]]",
                    List.of(new StackFrame("train.py", 40 + i, "forward"))));
        }
        String[][] kernels = {
                {"sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc", "CONV2D_2", "true"},
                {"implicit_convolve_sgemm", "CONV2D_1", "false"},
                {"void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, float const*)",
                        "BATCH_NORM_1", "false"},
                {"ampere_sgemm_128x64_tn", "LINEAR_1", "false"},
                {"cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_tn_align4>", "LINEAR_1", "true"},
                {"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar>",
                        "RELU_1", "false"},
                {"wgrad_alg0_engine<float, 128, 6, 7, 3, 3, 5, false, 512>", "CONV2D_3", "false"}};
        for (int i = 0; i < kernels.length; i++) {
            for (int dev = 0; dev < 2; dev++) {
                b.kernel(new KernelFact(kernels[i][0], kernels[i][0], kernels[i][1], dev,
                        stat(14 * (i + 1), 2_000_000L / (i + 1)), stat(14 * (i + 1), 6_000),
                        Boolean.parseBoolean(kernels[i][2]), "128,1,1", "256,1,1"));
            }
        }
        for (int i = 0; i < 14; i++) {
            long start = 1_000_000_000L + i * 300_000_000L;
            long dur = i == 0 ? 620_000_000L : i == 7 ? 410_000_000L : 280_000_000L + (i % 3) * 9_000_000L;
            long gpu = i == 0 ? 150_000_000L : 170_000_000L + (i % 4) * 6_000_000L;
            // 56 launches per iteration: kernel k on each of the 2 devices k+1 times, itemised for the aggregated ones
            b.iteration(new Iteration(i, start, start + dur, i >= 3 && i <= 11, 56, gpu, gpu / 5, 12_000_000L));
            if (i < 3 || i > 11) continue;
            for (int k = 0; k < kernels.length; k++) {
                for (int dev = 0; dev < 2; dev++) {
                    b.iterationKernel(new IterationKernel(i, kernels[k][1], kernels[k][0], dev,
                            Boolean.parseBoolean(kernels[k][2]), k + 1, (k + 1) * 1_500_000L * (i % 2 + 1),
                            start + 1_000_000L * (kernels.length - k) + dev * 10_000L));
                }
            }
        }
        b.warning("nsys.unclosed-range", "2 NVTX ranges never closed; they end at the profile's end");
        ProfileFacts facts = b.build();

        RuleMetadata amp = rule("amp-not-used", Severity.WARNING, "precision",
                "Tensor-core eligible ops run in FP32 while AMP is off.");
        RuleMetadata gpuIdle = rule("gpu-underutilized", Severity.ERROR, "utilization",
                "GPU busy less than the threshold share of wall time.");
        RuleMetadata workers = rule("dataloader-workers", Severity.WARNING, "input-pipeline",
                "Few DataLoader workers while the GPU waits for data.");
        RuleMetadata pinned = rule("pageable-memcpy", Severity.NOTE, "memory",
                "Host-to-device copies from pageable memory.");
        RuleMetadata imbalance = rule("imbalanced-gpus", Severity.WARNING, "utilization",
                "One GPU runs much less kernel time than the busiest.");
        RuleMetadata conversions = rule("slow-kernel", Severity.NOTE, "kernels", "A kernel dominates GPU time.");
        RuleMetadata range = rule("bad-iteration-range", Severity.NOTE, "iterations",
                "The aggregated iterations vary a lot.");
        List<Finding> fs = new ArrayList<>();
        fs.add(finding(gpuIdle, Severity.ERROR, "GPU utilization is 62.7 % of the wall clock (threshold 80 %).",
                "Profile the input pipeline and host-side synchronisation; see https://docs.nvidia.com/deeplearning/"
                        + "performance/dl-performance-getting-started/index.html for a checklist.",
                Evidence.of("gpuUtilizationPct", 62.7, "thresholdPct", 80.0, "wallNs", 4_200_000_000L),
                Subject.profile(), null, path, Impact.perStep(41_000_000, 298_000_000, 30_000_000,
                        "idle GPU time per step")));
        fs.add(finding(amp, Severity.WARNING, "2 tensor-core eligible ops (conv2d) spend 1.6 s of GPU time in "
                        + "FP32 kernels.",
                "Enable automatic mixed precision: wrap the forward pass in torch.autocast(\"cuda\") and scale the "
                        + "loss with torch.cuda.amp.GradScaler.",
                Evidence.of("eligibleOps", 2, "gpuTimeNs", 1_620_000_000L, "dataType", "float32"),
                Subject.op("CONV2D_1", "model/layer1/0/conv1"), new StackFrame("train.py", 40, "forward"), path,
                Impact.perStep(5_000_000, 298_000_000, 3_000_000, "FP32 time of eligible ops")));
        fs.add(finding(workers, Severity.WARNING, "The DataLoader uses 2 workers and data loading takes 17.9 % of "
                        + "the wall time.",
                "Raise num_workers (e.g. to the number of CPU cores per GPU) and set pin_memory=True.",
                Evidence.of("numWorkers", 2, "dataloaderPct", 17.9), Subject.profile(), null, path));
        fs.add(finding(pinned, Severity.NOTE, "1,200 host-to-device copies (4.5 GiB) read pageable memory.",
                "Use pinned host memory (pin_memory=True) so copies can overlap with compute.",
                Evidence.of("copies", 1200, "copiedBytes", 4_800_000_000L), Subject.api("cudaMemcpyAsync"), null,
                path));
        fs.add(finding(imbalance, Severity.WARNING, "GPU 1 ran 9 % less kernel time than GPU 0.",
                "Balance the work across ranks.", Evidence.of("deviceId", 1, "busiestDeviceId", 0),
                Subject.gpu(1), null, path));
        fs.add(finding(conversions, Severity.NOTE, "implicit_convolve_sgemm takes the most GPU time of the FP32 kernels.",
                "Enable tensor cores for convolutions.", Evidence.of("topKernel", "implicit_convolve_sgemm"),
                Subject.kernel("implicit_convolve_sgemm"), null, path));
        fs.add(finding(range, Severity.NOTE, "Iteration durations vary by 14 % in the aggregated range.",
                "Aggregate steady iterations only.", Evidence.of("variationPct", 13.8),
                Subject.iterations(3, 11), null, path));
        ProfileResult result = new ProfileResult(facts, fs, List.of(fs.get(3)));
        return new LintRun("0.1.0", List.of(new PackInfo("dlprof", "1.0.0", "DLProf expert-system rules", "builtin")),
                List.of(amp, gpuIdle, workers, pinned, imbalance, conversions, range), List.of(result));
    }

    /** Every name and text a profile or rule can carry holds one of the {@link #HOSTILE} strings. */
    static LintRun hostile() {
        String evil = String.join(" | ", HOSTILE);
        String path = "runs/" + HOSTILE.get(1) + "/nsys_profile.sqlite";
        ProfileFacts.Builder b = ProfileFacts.builder()
                .profile(new ProfileInfo(path, "nsys-sqlite", evil, evil, 0, 2_000_000_000L))
                .system(new SystemInfo(evil, evil, evil, evil, evil, evil, evil, 0, 2))
                .gpu(new GpuInfo(0, evil, 80, 34_000_000_000L, 7, 0, -1))
                .gpuUsage(new GpuUsage(0, 10, 1_000_000, 0, 1_000_000, 2_000_000_000L, 0.05))
                .breakdown(new TimeBreakdown(2_000_000_000L, 10, 50, 5, 45, 5, 10, 10, 20, 5))
                .iterationSummary(new IterationSummary(evil, false, evil, 3, 0, 2, 600_000_000, 1_000, evil, List.of()));
        for (int i = 0; i < HOSTILE.size(); i++) {
            String h = HOSTILE.get(i);
            b.op(new OpFact("OP_" + i, h, h, Direction.FPROP, 1, stat(1, 1000), stat(1, 50_000L * (i + 1)),
                    stat(1, 10), stat(1, 10), true, i % 2 == 0, 1000, 1, h, h, List.of(new StackFrame(h, 1, h))));
            b.kernel(new KernelFact(h, h, h, 0, stat(2, 30_000L * (i + 1)), stat(2, 100), i % 2 == 0, h, h));
            b.warning(h, h);
        }
        for (int i = 0; i < 3; i++) {
            b.iteration(new Iteration(i, i * 600_000_000L, (i + 1) * 600_000_000L, true, 10, 300_000_000, 100_000_000,
                    1_000_000));
        }
        ProfileFacts facts = b.build();
        RuleMetadata r = new RuleMetadata("dlprof/" + HOSTILE.get(0), "dlprof", evil, evil, Severity.ERROR, evil,
                "1.0.0", evil, "javascript:document.title='pwned'", List.of(), List.of(), List.of(), evil);
        List<Finding> fs = new ArrayList<>();
        for (String h : HOSTILE) {
            fs.add(new Finding(r.id(), "dlprof", evil, Severity.ERROR, h, h + " see http://x\"><script>document.title='pwned'</script>",
                    h, Evidence.of(h, h, "n" + h, 1.5), new Subject("op", h, h), new StackFrame(h, 3, h),
                    "javascript:document.title='pwned'", path, h, null));
        }
        return new LintRun(evil, List.of(new PackInfo(evil, evil, evil, evil)), List.of(r),
                List.of(new ProfileResult(facts, fs, List.of())));
    }

    /** Many ops, kernels, iterations and findings, and a 10 MB kernel name: the report must stay small. */
    static LintRun large() {
        String path = "big/nsys_profile.sqlite";
        ProfileFacts.Builder b = ProfileFacts.builder()
                .profile(new ProfileInfo(path, "nsys-sqlite", "2024.1", null, 0, 100_000_000_000L));
        for (int i = 0; i < 5_000; i++) {
            b.op(new OpFact("OP_" + i, "model/block" + i + "/conv", "conv2d", Direction.FPROP, 100, stat(100, 1000),
                    stat(100, 1000 + i), stat(100, 10), stat(100, 10), true, false, 0, 100, "float32", null, List.of()));
            b.kernel(new KernelFact("kernel_" + i, "kernel_" + i, "OP_" + i, 0, stat(100, 900 + i), stat(100, 5),
                    false, "1,1,1", "32,1,1"));
        }
        b.kernel(new KernelFact("k".repeat(10_000_000), "k".repeat(10_000_000), "OP_0", 0, stat(1, 1), stat(1, 1),
                false, null, null));
        for (int i = 0; i < 5_000; i++) {
            b.iteration(new Iteration(i, i * 20_000_000L, (i + 1) * 20_000_000L, i > 100 && i < 4_000, 100, 10_000_000,
                    1_000_000, 100_000));
        }
        b.iterationSummary(new IterationSummary("step", true, "user", 5_000, 101, 3_999, 20_000_000, 0, IterationSummary.USER_KEY_NODE, List.of()));
        RuleMetadata r = rule("many", Severity.WARNING, "test", "many findings");
        List<Finding> fs = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            fs.add(finding(r, Severity.WARNING, "op " + i + " is slow", "make it fast",
                    Evidence.of("gpuTimeNs", 1000L + i), Subject.op("OP_" + i, "op" + i), null, path));
        }
        return new LintRun("0.1.0", List.of(), List.of(r), List.of(new ProfileResult(b.build(), fs, List.of())));
    }
}
