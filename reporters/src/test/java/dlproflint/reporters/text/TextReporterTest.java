package dlproflint.reporters.text;

import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.reporters.TestRuns;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextReporterTest {
    private static String render(LintRun run, boolean color) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new TextReporter(color ? SGR : TextStyle.PLAIN).render(run, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** A terminal style as the cli's (which writes picocli's escapes; its bytes are tested in cli's AnsiStyleTest). */
    static final TextStyle SGR = new TextStyle() {
        @Override
        public String bold(String s) {
            return "\u001b[1m" + s + "\u001b[0m";
        }

        @Override
        public String dim(String s) {
            return "\u001b[2m" + s + "\u001b[0m";
        }

        @Override
        public String severity(dlproflint.findings.Severity sev, String s) {
            return sev == null ? s : "\u001b[1;3" + switch (sev) { case ERROR -> 1; case WARNING -> 3; case NOTE -> 6; } + "m" + s + "\u001b[0m";
        }
    };

    @Test
    void headerMetricsFindingsAndSummary() throws IOException {
        String text = render(TestRuns.single("/data/run1/nsys_profile.sqlite"), false);
        assertTrue(text.startsWith("dlprof-lint 0.1.0 | packs: dlprof 1.0.0\n"), text);
        assertTrue(text.contains("/data/run1/nsys_profile.sqlite [nsys-sqlite]\n"), text);
        assertTrue(text.contains("GPUs: GPU 0 NVIDIA A100-SXM4-40GB (cc 8.0) util 42.5%; GPU 1 NVIDIA A100-SXM4-40GB (cc 8.0)"), text);
        assertTrue(text.contains("wall 12.00 s | GPU util 42.5% | TC util 12.5% | iterations 20 (aggregated 5-14, avg 550.0 ms; inferred from the repeating op aten::backward)"), text);
        assertTrue(text.contains("""
                  WARNING dlprof/amp-not-used (precision)
                    ≈ 41.3 ms/step, 7.5% of the step
                    5 ops were eligible to use tensor cores but none are using FP16
                    fix: Try enabling AMP (Automatic Mixed Precision).
                    subject: op CONV2D_1 (model/conv1)
                    at: models/resnet.py:42 in forward
                    evidence: eligibleOps=5, nanRatio=NaN, formula==HYPERLINK("http://evil.example","click"), negative=-3.5
                    cost estimate: GPU time of 5 eligible FP32 op(s) × (1 − 1/2)
                    help: https://github.com/dlprof-lint/dlprof-lint/blob/main/docs/rules/dlprof/amp-not-used.md
                """), text);
        assertTrue(text.contains("  ERROR   dlprof/gpu-underutilized (utilization)\n"
                + "    ≈ 316.3 ms/step, 57.5% of the step; a fix recovers ≈ 220.0 ms/step (40.0%)\n"), "the cost comes first");
        assertTrue(text.contains("  NOTE    dlprof/slow-kernel (kernels)\n    Kernel "), "no cost line without an impact");
        assertTrue(text.contains("    fix: -Consider a larger batch size\n         or more DataLoader workers.\n"),
                "multi-line text stays aligned");
        assertTrue(text.endsWith("  1 error, 1 warning, 1 note (1 suppressed)\n"), text);
    }

    @Test
    void findingsInSeverityOrder() throws IOException {
        String text = render(TestRuns.single("/p.sqlite"), false);
        int error = text.indexOf("ERROR   dlprof/gpu-underutilized");
        int warning = text.indexOf("WARNING dlprof/amp-not-used");
        int note = text.indexOf("NOTE    dlprof/slow-kernel");
        assertTrue(error > 0 && error < warning && warning < note, text);
    }

    @Test
    void colourOnlyWhenAsked() throws IOException {
        String plain = render(TestRuns.single("/p.sqlite"), false);
        String color = render(TestRuns.single("/p.sqlite"), true);
        assertFalse(plain.contains("\u001b"), "no escape sequence at all without colour, not even from the profile");
        assertTrue(color.contains("\u001b[1;31mERROR  \u001b[0m"), color);
        assertEquals(plain, color.replaceAll("\u001b\\[[0-9;]*m", ""), "colour adds escapes and nothing else");
    }

    @Test
    void profileTextCannotDriveTheTerminal() throws IOException {
        String text = render(TestRuns.single("/p.sqlite"), true);
        assertTrue(text.contains("\\x1B[31m\\x00\\x07\\x09tab"), "ESC, NUL, BEL, TAB from a kernel name shown escaped");
        assertFalse(text.contains("\u0007") || text.contains("\u0000"));
    }

    @Test
    void severalProfilesGetATotal() throws IOException {
        LintRun run = new LintRun("0.1.0", List.of(), TestRuns.rules(),
                List.of(TestRuns.result("/r0/p.sqlite"), TestRuns.result("/r1/p.sqlite"),
                        new ProfileResult(TestRuns.facts("/r2/p.sqlite"), List.of(), List.of())));
        String text = render(run, false);
        assertTrue(text.indexOf("/r0/p.sqlite") < text.indexOf("/r1/p.sqlite"), "profiles in the order given");
        assertTrue(text.contains("  no findings: 0 errors, 0 warnings, 0 notes\n"), text);
        assertTrue(text.endsWith("Total (3 profiles): 2 errors, 2 warnings, 2 notes (2 suppressed)\n"), text);
    }
}
