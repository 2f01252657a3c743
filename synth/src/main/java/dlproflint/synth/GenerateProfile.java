package dlproflint.synth;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Command line: writes a synthetic nsys SQLite profile.
 *
 * <pre>
 * java -cp cli/target/dlprof-lint.jar dlproflint.synth.GenerateProfile --preset resnet-like-fp32 examples/resnet-like-fp32.sqlite
 * java -cp cli/target/dlprof-lint.jar dlproflint.synth.GenerateProfile --preset benchmark-1m bench-out/1m.sqlite
 * java -cp ... dlproflint.synth.GenerateProfile --iterations 100 --ops 50 --kernels-per-op 4 --gpus 2 out.sqlite
 * </pre>
 */
public final class GenerateProfile {
    private GenerateProfile() {
    }

    static final String USAGE = """
            usage: GenerateProfile [--preset resnet-like-fp32|benchmark-1m|emit-nvtx-1m|emit-nvtx-10m] [options] OUTPUT.sqlite
              --schema 2022.1|2025.5   export schema (default 2022.1)
              --gpus N                 GPUs, one process each (default 1)
              --iterations N --ops N --kernels-per-op N   size (kernels = iterations*ops*kernels-per-op*gpus)
              --seed N                 random seed (default 1)
              --[no-]emit-nvtx --[no-]dlprof-markers --[no-]tensor-cores --[no-]backward
              --[no-]pageable --[no-]sync --input-bytes N --idle-gap-ns N
              --step-jitter-pct P      scale each iteration's GPU and data-loader times by 1 ± P % (run-to-run noise)
              --slow-op OP=FACTOR      multiply the GPU time of op OP's kernels (e.g. linear=3); repeatable""";

    public static void main(String[] args) throws Exception {
        try {
            Parsed parsed = parse(args);
            long t0 = System.nanoTime();
            Workload.Result r = Workload.generate(parsed.spec, parsed.out);
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf(Locale.ROOT, "wrote %s in %.2f s: %d kernels, %d CUDA API calls, %d NVTX events, "
                            + "%d memcpys, %d memsets, %d syncs%n", parsed.out, s, r.kernels(), r.apiCalls(),
                    r.nvtxEvents(), r.memcpys(), r.memsets(), r.syncs());
        } catch (IllegalArgumentException e) {
            System.err.println("GenerateProfile: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
        }
    }

    record Parsed(WorkloadSpec spec, Path out) {
    }

    static Parsed parse(String[] args) {
        List<String> a = new ArrayList<>(List.of(args));
        WorkloadSpec base = WorkloadSpec.builder().build();
        int presetAt = a.indexOf("--preset");
        if (presetAt >= 0) {
            if (presetAt + 1 >= a.size()) throw new IllegalArgumentException("--preset needs a name");
            String name = a.remove(presetAt + 1);
            a.remove(presetAt);
            base = switch (name) {
                case "resnet-like-fp32" -> WorkloadSpec.resnetLikeFp32();
                case "benchmark-1m" -> WorkloadSpec.benchmark1M();
                case "emit-nvtx-1m" -> WorkloadSpec.emitNvtx(5_000);
                case "emit-nvtx-10m" -> WorkloadSpec.emitNvtx(50_000);
                default -> throw new IllegalArgumentException("unknown preset " + name);
            };
        }
        WorkloadSpec.Builder b = base.toBuilder();
        java.util.Map<String, Double> slow = new java.util.LinkedHashMap<>(base.opSlowdown());
        Path out = null;
        for (int i = 0; i < a.size(); i++) {
            String arg = a.get(i);
            switch (arg) {
                case "--schema" -> b.schema(switch (value(a, ++i, arg)) {
                    case "2022.1" -> NsysSchema.NSYS_2022_1;
                    case "2025.5" -> NsysSchema.NSYS_2025_5;
                    default -> throw new IllegalArgumentException("--schema: 2022.1 or 2025.5");
                });
                case "--gpus" -> b.gpus(intValue(a, ++i, arg));
                case "--iterations" -> b.iterations(intValue(a, ++i, arg));
                case "--ops" -> b.opsPerIteration(intValue(a, ++i, arg));
                case "--kernels-per-op" -> b.kernelsPerOp(intValue(a, ++i, arg));
                case "--seed" -> b.seed(Long.parseLong(value(a, ++i, arg)));
                case "--input-bytes" -> b.inputBytes(Long.parseLong(value(a, ++i, arg)));
                case "--idle-gap-ns" -> b.dataloaderGapNs(Long.parseLong(value(a, ++i, arg)));
                case "--step-jitter-pct" -> b.stepJitterPct(Double.parseDouble(value(a, ++i, arg)));
                case "--slow-op" -> {
                    String v = value(a, ++i, arg);
                    int eq = v.indexOf('=');
                    if (eq <= 0) throw new IllegalArgumentException("--slow-op needs OP=FACTOR, not " + v);
                    slow.put(v.substring(0, eq), Double.parseDouble(v.substring(eq + 1)));
                }
                case "--emit-nvtx", "--no-emit-nvtx" -> b.emitNvtx(!arg.startsWith("--no-"));
                case "--dlprof-markers", "--no-dlprof-markers" -> b.dlprofMarkers(!arg.startsWith("--no-"));
                case "--tensor-cores", "--no-tensor-cores" -> b.tensorCores(!arg.startsWith("--no-"));
                case "--backward", "--no-backward" -> b.backward(!arg.startsWith("--no-"));
                case "--pageable", "--no-pageable" -> b.pageableMemcpy(!arg.startsWith("--no-"));
                case "--sync", "--no-sync" -> b.deviceSync(!arg.startsWith("--no-"));
                case "--no-model-config" -> b.modelConfig(null);
                case "--model-config" -> b.modelConfig(base.modelConfig() != null ? base.modelConfig()
                        : Collections.singletonMap("emit_nvtx", true));
                default -> {
                    if (arg.startsWith("--")) throw new IllegalArgumentException("unknown option " + arg);
                    if (out != null) throw new IllegalArgumentException("more than one output file");
                    out = Path.of(arg);
                }
            }
        }
        if (out == null) throw new IllegalArgumentException("no output file");
        return new Parsed(b.opSlowdown(slow).build(), out);
    }

    private static String value(List<String> a, int i, String opt) {
        if (i >= a.size()) throw new IllegalArgumentException(opt + " needs a value");
        return a.get(i);
    }

    private static int intValue(List<String> a, int i, String opt) {
        try {
            return Integer.parseInt(value(a, i, opt));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(opt + ": not a number: " + a.get(i));
        }
    }
}
