package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.synth.GpuModel;
import dlproflint.synth.SyntheticProfile;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's plain {@code dlprof-lint profile} (no configuration, default {@code --fail-on error}) as a CI gate:
 * it fails on a profile whose steady state loses a fifth or more of each step to one fixable cause, and passes a
 * healthy one (tensor cores used, no per-step synchronisation, pinned copies). Checked on real corpus profiles and on
 * generated nsys exports that differ from a healthy GPU-bound loop by exactly one cause.
 */
class SeverityFromImpactTest {
    @TempDir
    Path dir;
    CliHarness cli;

    @BeforeEach
    void setUp() throws IOException {
        Files.createDirectories(dir.resolve(".git")); // a repository without .dlprof-lint.yml: no configuration applies
        cli = new CliHarness(dir);
    }

    private JsonNode lint(Path profile, int expectedExit) throws IOException {
        CliHarness.Result r = cli.run(profile.toString(), "--report", "json=out.json", "--report", "text=out.txt");
        assertEquals(expectedExit, r.code(), () -> r + "\n" + read("out.txt"));
        return E2eFixture.json(dir.resolve("out.json")).path("profiles").get(0);
    }

    private String read(String name) {
        try {
            return Files.readString(dir.resolve(name));
        } catch (IOException e) {
            return "(no " + name + ")";
        }
    }

    private static JsonNode finding(JsonNode profile, String rule) {
        for (JsonNode f : profile.path("findings")) if (f.path("ruleId").asText().equals(rule)) return f;
        throw new AssertionError("no " + rule + " in " + profile.path("findings"));
    }

    private static List<String> errors(JsonNode profile) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : profile.path("findings")) {
            if (f.path("severity").asText().equals("error")) out.add(f.path("ruleId").asText());
        }
        return out;
    }

    // ------------------------------------------------------------------ real profiles

    @Test
    void dataLoadingInTheTrainingProcessFailsTheBuild() throws IOException {
        // the H200 MobileNetV3 with DataLoader(num_workers=0): twelve workers made the unprofiled step 89 % shorter
        JsonNode p = lint(Corpus.file("pytorch-h200-2026/mobilenet_loader_nw0.pt.trace.json.gz"), 1);
        JsonNode f = finding(p, "dlprof/dataloader-bound");
        assertEquals("error", f.path("severity").asText());
        JsonNode impact = f.path("impact");
        assertEquals("step", impact.path("basis").asText(), "the trace has ProfilerStep markers");
        assertTrue(impact.path("savingPct").asDouble() >= 80, impact.toString());
        assertEquals(Math.round(impact.path("sharePct").asDouble()), impact.path("rank").asInt());
        assertTrue(read("out.txt").contains("ERROR   dlprof/dataloader-bound (input-pipeline)\n    ≈ "), read("out.txt"));
    }

    @Test
    void aLoaderThatCostsATenthOfTheStepWarns() throws IOException {
        // the TensorBoard plugin's ResNet-50 samples with DataLoader(num_workers=0) on a V100: four workers saved 15-20 %
        // of the profiled step and 5-8 % of the step replayed without the profiler (DataLoaderTwinsTest); the replayed
        // saving of the loader's calls, 10-12 %, is a warning (it was an error, 24-40 %, from the profiled share)
        for (String rel : List.of(
                "kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz",
                "kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
                "kineto-tb-plugin/86791410/tb_plugin/samples/resnet50_profiler_api_num_workers_0/worker0.pt.trace.json.gz")) {
            JsonNode p = lint(Corpus.file(rel), 0);
            JsonNode f = finding(p, "dlprof/dataloader-bound");
            assertEquals("warning", f.path("severity").asText(), rel);
            double saving = f.path("impact").path("savingPct").asDouble();
            assertTrue(saving >= 5 && saving < 20, rel + " " + f.path("impact"));
            assertTrue(f.path("impact").path("model").asText().startsWith("replayed step with the loop's DataLoader calls"), rel);
        }
    }

    @Test
    void theSameModelWithFourWorkersPasses() throws IOException {
        // same samples with num_workers=4: the loader overlaps; what is left (FP32 convolutions, pageable copies) is
        // below a fifth of the step
        JsonNode p = lint(Corpus.file("kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_4/worker0.pt.trace.json.gz"), 0);
        assertEquals(List.of(), errors(p));
        // host-bound with four workers (issue 24: AMP's saving is promised only where the steps are GPU-bound), so a note
        assertEquals("note", finding(p, "dlprof/amp-not-used").path("severity").asText());
        assertEquals("note", finding(p, "nsys/pageable-async-memcpy").path("severity").asText());
    }

    @Test
    void aHealthyRealProfilePasses() throws IOException {
        // HTA's trace_diff control run: tensor cores in use (15% of kernel time), GPU busy 79% of the steps,
        // no synchronisation statistics, a few bytes of pageable copies
        JsonNode p = lint(Corpus.file("hta/tests/data/trace_diff/control/control.json.gz"), 0);
        assertEquals(List.of(), errors(p));
        assertTrue(p.path("metrics").path("tcUtilizationPct").asDouble() > 10, p.path("metrics").toString());
        // a Qwen1.5 inference trace on an H100: bf16 tensor-core GEMMs (28% of kernel time), GPU busy 91%; its casts
        // cost 15% of the capture, of which keeping tensors in bf16 recovers about half: a warning, not a failure
        p = lint(Corpus.file("tracelens/tests/traces/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"), 0);
        assertEquals(List.of(), errors(p));
        assertEquals("warning", finding(p, "nsys/precision-conversions").path("severity").asText());
    }

    // ------------------------------------------------------------------ generated profiles, one cause each

    /** What differs from the healthy loop. */
    enum Cause { NONE, SYNC, PAGEABLE, LOADER }

    /**
     * A training loop of 20 steps on a V100, each step a {@code ProfilerStep#N} range: the next batch from the data
     * loader, its copy to the GPU (10 MB, pinned, asynchronous), 8 tensor-core GEMMs of 1 ms, then 2 ms of host
     * work (logging). Healthy, the host needs 5 ms per step and the GPU 9 ms, so the host runs ahead and the GPU
     * never waits. Each cause adds one problem: a cudaDeviceSynchronize before the logging (the host's logging and
     * next batch no longer overlap with the GPU), a pageable 60 MB input copy (it blocks the host for its 10 ms),
     * or a data loader that needs 12 ms per batch.
     */
    private Path loop(Cause cause) throws IOException {
        Path file = dir.resolve(cause.name().toLowerCase() + ".sqlite");
        try (SyntheticProfile p = SyntheticProfile.options().gpus(GpuModel.V100_SXM2_16GB, 1).seed(11).startNs(1_000_000).open(file)) {
            p.api("cudaMalloc_v3020", 60_000);
            for (int step = 0; step < 20; step++) {
                p.push("ProfilerStep#" + step);
                p.push("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__")
                        .cpu(cause == Cause.LOADER ? 12_000_000 : 1_000_000).pop();
                p.push("aten::to, seq = " + step);
                p.memcpy(SyntheticProfile.HTOD, cause == Cause.PAGEABLE ? 60_000_000 : 10_000_000, cause == Cause.PAGEABLE, true);
                p.pop();
                for (int k = 0; k < 8; k++) {
                    p.push("aten::mm, seq = " + step).cpu(250_000)
                            .kernel("volta_h884gemm_128x128_ldg8_nn", 1_000_000).pop();
                }
                if (cause == Cause.SYNC) p.deviceSynchronize();
                p.push("log_metrics").cpu(2_000_000).pop();
                p.pop();
            }
        }
        return file;
    }

    @Test
    void aHealthyGeneratedLoopPasses() throws IOException {
        JsonNode p = lint(loop(Cause.NONE), 0);
        assertEquals(List.of(), errors(p));
        assertTrue(p.path("metrics").path("tcUtilizationPct").asDouble() > 90, p.path("metrics").toString());
    }

    @Test
    void synchronisingEveryStepFailsTheBuild() throws IOException {
        JsonNode p = lint(loop(Cause.SYNC), 1);
        JsonNode f = finding(p, "nsys/sync-api");
        assertTrue(f.path("impact").path("sharePct").asDouble() >= 20, f.toString());
        assertTrue(f.path("impact").path("model").asText().contains("cudaDeviceSynchronize"), f.toString());
        // the same calls are host-sync-in-step's cause: counted once, there, as the error that fails the build
        JsonNode cause = finding(p, "pytorch/host-sync-in-step");
        assertEquals("error", cause.path("severity").asText(), cause.toString());
        assertEquals(f.path("impact").path("sharePct").asDouble(), cause.path("impact").path("savingPct").asDouble(), 0.5, cause.toString());
    }

    @Test
    void pageableInputCopiesFailTheBuild() throws IOException {
        JsonNode p = lint(loop(Cause.PAGEABLE), 1);
        JsonNode f = finding(p, "nsys/pageable-async-memcpy");
        assertEquals("error", f.path("severity").asText(), f.toString());
        assertTrue(f.path("impact").path("sharePct").asDouble() >= 20, f.toString());
    }

    @Test
    void aSlowDataLoaderFailsTheBuild() throws IOException {
        JsonNode p = lint(loop(Cause.LOADER), 1);
        JsonNode f = finding(p, "dlprof/dataloader-bound");
        assertEquals("error", f.path("severity").asText(), f.toString());
        assertTrue(f.path("impact").path("sharePct").asDouble() >= 20, f.toString());
    }

    /**
     * The generated loops differ from the healthy one by one cause, so the time each cause adds is known: the
     * difference of their wall clocks. What the finding says a fix recovers must be that time (within 10%), not
     * the host time blocked or the copy time, which are larger or smaller than what the run actually loses.
     */
    @Test
    void eachEstimateMatchesTheTimeItsCauseAddsToTheRun() throws IOException {
        // the capture's span, GPU tail included: the healthy loop's host runs ahead of the GPU, so its ProfilerStep
        // ranges (the steps' wall clock) end long before its last kernel and would understate its run time
        double healthyWall = span(lint(loop(Cause.NONE), 0));
        String[][] causes = {{"SYNC", "nsys/sync-api"}, {"PAGEABLE", "nsys/pageable-async-memcpy"}, {"LOADER", "dlprof/dataloader-bound"}};
        for (String[] c : causes) {
            JsonNode p = lint(loop(Cause.valueOf(c[0])), 1);
            double added = span(p) - healthyWall;
            JsonNode impact = finding(p, c[1]).path("impact");
            // sharePct: what the rule measured, before another finding claiming the same time took it (counted once)
            double recovered = impact.path("basis").asText().equals("step")
                    ? impact.path("sharePct").asDouble() / 100 * p.path("metrics").path("wallNs").asDouble()
                    : impact.path("lostNs").asDouble();
            assertEquals(added, recovered, 0.10 * added, c[0] + ": the cause adds " + added + " ns; " + impact);
        }
    }

    private static double span(JsonNode profile) {
        return profile.path("endNs").asDouble() - profile.path("startNs").asDouble();
    }

    @Test
    void aPinnedSeverityAndOwnThresholdsOverrideTheDefaults() throws IOException {
        Path sync = loop(Cause.SYNC);
        Files.writeString(dir.resolve(".dlprof-lint.yml"), """
                rules:
                  severity:
                    nsys/sync-api: warning
                """);
        CliHarness.Result r = cli.run(sync.toString(), "--report", "json=pinned.json", "--disable", "dlprof/underutilized-gpu");
        JsonNode f = finding(E2eFixture.json(dir.resolve("pinned.json")).path("profiles").get(0), "nsys/sync-api");
        assertEquals("warning", f.path("severity").asText(), r.toString());
        assertNotNull(f.path("impact").path("sharePct"), "a pinned severity keeps the impact");

        Files.writeString(dir.resolve(".dlprof-lint.yml"), """
                rules:
                  severityThresholds: {error: 100, warning: 100}
                """);
        r = cli.run(loop(Cause.PAGEABLE).toString(), "--report", "json=raised.json");
        assertEquals(0, r.code(), r::toString);
        JsonNode raised = E2eFixture.json(dir.resolve("raised.json")).path("profiles").get(0);
        for (JsonNode x : raised.path("findings")) {
            if (!x.path("impact").isNull()) {
                assertEquals("note", x.path("severity").asText(), "every measured finding under 100% is a note: " + x);
            }
        }
    }

    // ------------------------------------------------------------------ one order everywhere

    @Test
    void everyFormatListsTheFindingsInTheSameOrderAndSarifRanksFollowTheImpact() throws IOException {
        Path profile = Corpus.file("kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
        Files.writeString(dir.resolve("train.py"), "pass\n");
        CliHarness.Result r = cli.run(profile.toString(), "--report", "json=o.json", "--report", "sarif=o.sarif",
                "--report", "csv=o.csv", "--report", "text=o.txt", "--sarif-anchor", "train.py", "--fail-on", "none");
        assertEquals(0, r.code(), r::toString);
        List<String> json = new ArrayList<>();
        List<Double> shares = new ArrayList<>();
        List<Double> savings = new ArrayList<>();
        for (JsonNode f : E2eFixture.json(dir.resolve("o.json")).path("profiles").get(0).path("findings")) {
            json.add(f.path("ruleId").asText() + " " + f.path("subject").path("ref").asText());
            shares.add(f.path("impact").isNull() ? null : f.path("impact").path("sharePct").asDouble());
            savings.add(f.path("impact").isNull() ? null : f.path("impact").path("savingPct").asDouble());
        }
        assertTrue(json.size() >= 4, json.toString());
        List<String> sarif = new ArrayList<>();
        JsonNode results = E2eFixture.json(dir.resolve("o.sarif")).path("runs").get(0).path("results");
        for (int i = 0; i < results.size(); i++) {
            JsonNode x = results.get(i);
            sarif.add(x.path("ruleId").asText() + " " + x.path("properties").path("subject").asText());
            if (shares.get(i) == null) {
                assertFalse(x.has("rank"), "no rank without an impact: " + x);
            } else {
                // the rank is what a fix recovers, the share of the step it saves (docs/sarif.md)
                assertEquals(Math.round(savings.get(i)), x.path("rank").asDouble(), 1e-9, x.toString());
                assertEquals(shares.get(i), x.path("properties").path("impact").path("sharePct").asDouble(), 1e-9);
            }
        }
        assertEquals(json, sarif, "SARIF results in the JSON report's order");
        List<String> csv = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("o.csv")).subList(1, json.size() + 1)) {
            String[] cells = line.split(",");
            csv.add(cells[1]);
        }
        assertEquals(json.stream().map(s -> s.substring(0, s.indexOf(' '))).toList(), csv, "CSV rows in the same order");
        String text = Files.readString(dir.resolve("o.txt"));
        int at = -1;
        for (String s : json) {
            String rule = s.substring(0, s.indexOf(' '));
            int next = text.indexOf(" " + rule + " (", at + 1);
            assertTrue(next > at, rule + " comes after the previous finding in the text report:\n" + text);
            at = next;
        }
        // within a severity, the larger saving first; measured findings before unmeasured ones
        List<String> severities = new ArrayList<>();
        for (JsonNode f : E2eFixture.json(dir.resolve("o.json")).path("profiles").get(0).path("findings")) {
            severities.add(f.path("severity").asText());
        }
        for (int i = 1; i < json.size(); i++) {
            if (!severities.get(i).equals(severities.get(i - 1))) continue;
            if (savings.get(i - 1) == null) assertEquals(null, savings.get(i), "unmeasured findings come last within a severity");
            else if (savings.get(i) != null) assertTrue(savings.get(i - 1) >= savings.get(i), savings.toString());
        }
    }
}
