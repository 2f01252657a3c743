package dlproflint.reporters;

import dlproflint.findings.Evidence;
import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.PackInfo;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.StackFrame;
import dlproflint.facts.SystemInfo;
import dlproflint.facts.TimeBreakdown;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Hand-built lint runs for reporter tests (the engine is not needed to render): realistic facts
 * and findings, plus names that try to break every format (quotes, markup, control characters,
 * spreadsheet formulas).
 */
public final class TestRuns {
    public static final String HOSTILE_KERNEL =
            "void at::native::<script>alert(\"x\")</script>_kernel<float, \"q\"&'a'>\u001b[31m\u0000\u0007\ttab";
    public static final String FORMULA = "=HYPERLINK(\"http://evil.example\",\"click\")";

    private TestRuns() {
    }

    public static final String PACK = "dlprof";
    public static final String VERSION = "1.0.0";

    public static RuleMetadata rule(String name, Severity severity, String category, String summary, String markdown) {
        String id = PACK + "/" + name;
        return new RuleMetadata(id, PACK, VERSION, name.replace('-', ' '), severity, category, "1.0.0", summary,
                "https://github.com/dlprof-lint/dlprof-lint/blob/main/docs/rules/dlprof/" + name + ".md",
                List.of("pytorch", "tensorflow"), List.of("nsys-sqlite"), List.of(new dlproflint.findings.ParamSpec("minEligibleOps", 1.0, "eligible ops needed")), markdown);
    }

    public static List<RuleMetadata> rules() {
        return List.of(
                rule("amp-not-used", Severity.WARNING, "precision", "Tensor-core eligible ops run in FP32.",
                        "# AMP not used\n\nOps that could use **tensor cores** ran in `float32`.\nEnable AMP.\n\n## Fix\n\n```python\nwith torch.autocast('cuda'):\n    ...\n```\n"),
                rule("gpu-underutilized", Severity.ERROR, "utilization", "The GPU is idle most of the time.",
                        "# GPU underutilized\n\nThe GPU runs kernels for a small share of the wall time.\n"),
                rule("slow-kernel", Severity.NOTE, "kernels", "One kernel dominates GPU time.", ""));
    }

    public static Finding finding(String rule, Severity severity, String category, Subject subject, String problem,
                                  String recommendation, Map<String, Object> evidence, StackFrame location,
                                  String profilePath) {
        String id = PACK + "/" + rule;
        return new Finding(id, PACK, VERSION, severity, category, problem, recommendation, evidence, subject,
                location, "https://github.com/dlprof-lint/dlprof-lint/blob/main/docs/rules/dlprof/" + rule + ".md",
                profilePath, dlproflint.findings.Fingerprint.sha256Hex(id + "\0" + subject.ref()).substring(0, 32), null);
    }

    /** The same finding with what its problem costs. */
    public static Finding withImpact(Finding f, dlproflint.findings.Impact impact) {
        return new Finding(f.ruleId(), f.packId(), f.packVersion(), f.severity(), f.category(), f.problem(),
                f.recommendation(), f.evidence(), f.subject(), f.location(), f.helpUri(), f.profilePath(), f.fingerprint(),
                impact);
    }

    /** The repository the findings point into: {@code train.py} (the SARIF anchor) and {@code models/resnet.py}. */
    public static void sourceTree(Path repo) throws IOException {
        Files.writeString(repo.resolve("train.py"), "pass\n");
        Files.createDirectories(repo.resolve("models"));
        Files.writeString(repo.resolve("models/resnet.py"), "pass\n");
    }

    /** The same run with a message id on every finding, made of its rule's name ({@code low-utilization}...). */
    public static LintRun withMessageIds(LintRun run) {
        List<ProfileResult> results = new ArrayList<>();
        for (ProfileResult r : run.results()) {
            List<Finding> findings = new ArrayList<>();
            for (Finding f : r.findings()) {
                String id = switch (f.ruleId()) {
                    case PACK + "/gpu-underutilized" -> "low-utilization";
                    case PACK + "/amp-not-used" -> "fp32-eligible";
                    default -> "dominant";
                };
                findings.add(new Finding(f.ruleId(), f.packId(), f.packVersion(), f.severity(), f.category(), f.problem(),
                        f.recommendation(), f.evidence(), f.subject(), f.location(), f.helpUri(), f.profilePath(),
                        f.fingerprint(), f.impact(), id, Map.of()));
            }
            results.add(new ProfileResult(r.facts(), findings, r.suppressed()));
        }
        return new LintRun(run.toolVersion(), run.packs(), run.rules(), results);
    }

    public static ProfileFacts facts(String path) {
        return ProfileFacts.builder()
                .profile(new ProfileInfo(path, "nsys-sqlite", "2022.1.3.3-1c7b5f7", "2.9.1", 1_000_000L, 13_345_678_901L))
                .system(new SystemInfo("AMD EPYC 7742", "node-0", "510.47.03", "11.6", "8.3.2", "pytorch", "1.12.0", 0, 2))
                .gpu(new GpuInfo(0, "NVIDIA A100-SXM4-40GB", 108, 42_949_672_960L, 8, 0, -1))
                .gpu(new GpuInfo(1, "NVIDIA A100-SXM4-40GB", 108, 42_949_672_960L, 8, 0, 10_000_000_000L))
                .gpuUsage(new GpuUsage(0, 1200, 5_000_000_000L, 40, 5_100_000_000L, 12_000_000_000L, 42.5))
                .iterationSummary(new IterationSummary("aten::backward", true, "default", 20, 5, 14, 5.5e8, 2.0e7, IterationSummary.INFERRED_REPEATING_OP, List.of()))
                .breakdown(new TimeBreakdown(12_000_000_000L, 12.5, 42.5, 5.3, 37.2, 2.0, 10.0, 1.0, 40.0, 4.5))
                .warning("nsys.unclosed-range", "2 NVTX ranges were never closed")
                .build();
    }

    /** One profile, three findings of three severities in a deliberately unsorted order. */
    public static LintRun single(String path) {
        return new LintRun("0.1.0", List.of(new PackInfo(PACK, VERSION, "DLProf expert systems", "builtin")),
                rules(), List.of(result(path)));
    }

    public static ProfileResult result(String path) {
        List<Finding> findings = new ArrayList<>();
        findings.add(finding("slow-kernel", Severity.NOTE, "kernels", Subject.kernel(HOSTILE_KERNEL),
                "Kernel " + HOSTILE_KERNEL + " takes 61.2% of GPU time.", "Check its launch configuration.",
                Evidence.of("kernel", HOSTILE_KERNEL, "gpuTimePct", 61.234567, "calls", 120L), null, path));
        findings.add(withImpact(finding("amp-not-used", Severity.WARNING, "precision", Subject.op("CONV2D_1", "model/conv1"),
                "5 ops were eligible to use tensor cores but none are using FP16",
                "Try enabling AMP (Automatic Mixed Precision).",
                Evidence.of("eligibleOps", 5, "nanRatio", Double.NaN, "formula", FORMULA, "negative", -3.5),
                new StackFrame("models/resnet.py", 42, "forward"), path),
                dlproflint.findings.Impact.perStep(41.25e6, 5.5e8, 41.25e6, "GPU time of 5 eligible FP32 op(s) × (1 − 1/2)")));
        findings.add(withImpact(finding("gpu-underutilized", Severity.ERROR, "utilization", Subject.gpu(0),
                "The GPU is underutilized: only 42.5% of the profiled time is spent on GPU kernels",
                "-Consider a larger batch size\nor more DataLoader workers.",
                Evidence.of("gpuUtilizationPct", 42.5, "thresholdPct", 50.0), null, path),
                dlproflint.findings.Impact.perStep(316.25e6, 5.5e8, 220e6, "GPU idle time <script>alert(1)</script>")));
        Finding hidden = finding("slow-kernel", Severity.NOTE, "kernels", Subject.kernel("volta_sgemm_128x64_nn"),
                "Kernel volta_sgemm_128x64_nn takes 20% of GPU time.", "Baselined.", Evidence.of(), null, path);
        return new ProfileResult(facts(path), findings, List.of(hidden));
    }
}
