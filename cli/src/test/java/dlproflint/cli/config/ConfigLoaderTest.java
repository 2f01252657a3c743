package dlproflint.cli.config;

import dlproflint.engine.RunConfig;
import dlproflint.findings.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    private Path write(String yaml) throws IOException {
        return Files.writeString(dir.resolve(".dlprof-lint.yml"), yaml);
    }

    private String error(String yaml) throws IOException {
        Path f = write(yaml);
        return assertThrows(ConfigException.class, () -> ConfigLoader.load(f)).getMessage();
    }

    @Test
    void readsEverySection() throws Exception {
        Files.createDirectories(dir.resolve("site-rules"));
        LintConfig c = ConfigLoader.load(write("""
                packs:
                  dlprof: 1.0.0
                  experimental: false
                rules:
                  enable: [dlprof/amp-not-used, dlprof/underutilized-gpu]
                  disable: [dlprof/slow-debug-api]
                  severity:
                    dlprof/amp-not-used: Error
                  params:
                    dlprof/underutilized-gpu: {maxGpuUtilPct: 40}
                ruleDirs: [site-rules]
                suppressions:
                  - rule: dlprof/small-batch-size
                    subject: "op:*embedding*"
                    reason: the embedding lookup is small by design
                    expires: 2030-01-31
                sarif:
                  anchor: train.py
                """));
        assertEquals(Map.of("dlprof", "1.0.0"), c.rules().packVersions());
        assertEquals(java.util.Set.of("experimental"), c.rules().disabledPacks());
        assertEquals(Severity.ERROR, c.rules().severityOverrides().get("dlprof/amp-not-used"));
        assertEquals(40.0, c.rules().params().get("dlprof/underutilized-gpu").get("maxGpuUtilPct"));
        assertEquals(List.of(dir.resolve("site-rules").toAbsolutePath().normalize()), c.ruleDirs());
        assertEquals("train.py", c.sarifAnchor());
        Suppression s = c.suppressions().get(0);
        assertEquals(LocalDate.of(2030, 1, 31), s.expires());
        assertTrue(s.matches("dlprof/small-batch-size", "op:aten::embedding_backward"));
        assertFalse(s.matches("dlprof/small-batch-size", "op:aten::conv2d"));

        RunConfig rc = c.toRunConfig(List.of("dlprof/slow-debug-api"), List.of("dlprof/no-iterations"));
        assertTrue(rc.enable().contains("dlprof/slow-debug-api"));
        assertFalse(rc.disable().contains("dlprof/slow-debug-api"), "--enable on the command line beats a disable in the file");
        assertTrue(rc.disable().contains("dlprof/no-iterations"));
        assertEquals(java.util.Set.of("experimental"), rc.disabledPacks());
    }

    @Test
    void unknownTopLevelKeyNamesKeyAndLine() throws IOException {
        String msg = error("""
                packs:
                  dlprof: 1.0.0
                sevrity: {}
                """);
        assertTrue(msg.startsWith(".dlprof-lint.yml:3: unknown key 'sevrity'"), msg);
    }

    @Test
    void unknownNestedKeyNamesKeyLineAndSuggestion() throws IOException {
        String msg = error("""
                rules:
                  enable: [dlprof/amp-not-used]


                  sevrity:
                    dlprof/amp-not-used: error
                """);
        assertTrue(msg.startsWith(".dlprof-lint.yml:5: unknown key 'sevrity' in 'rules'"), msg);
        assertTrue(msg.contains("did you mean 'severity'?"), msg);
    }

    @Test
    void wrongTypeNamesKeyAndLine() throws IOException {
        String msg = error("""
                rules:
                  enable: dlprof/amp-not-used
                """);
        assertTrue(msg.startsWith(".dlprof-lint.yml:2: 'rules.enable': wrong type: expected a list"), msg);
    }

    @Test
    void nonNumericParamIsAnError() throws IOException {
        String msg = error("""
                rules:
                  params:
                    dlprof/underutilized-gpu:
                      maxGpuUtilPct: forty
                """);
        assertTrue(msg.startsWith(".dlprof-lint.yml:4: 'rules.params.dlprof/underutilized-gpu.maxGpuUtilPct'"), msg);
        assertTrue(msg.contains("expected a number"), msg);
    }

    @Test
    void badSeverityIsAnError() throws IOException {
        String msg = error("""
                rules:
                  severity:
                    dlprof/amp-not-used: fatal
                """);
        assertTrue(msg.startsWith(".dlprof-lint.yml:3: 'rules.severity.dlprof/amp-not-used': 'fatal' is not a severity"), msg);
    }

    @Test
    void packEntryMustBeVersionOrFalse() throws IOException {
        String msg = error("""
                packs:
                  dlprof: [1, 2]
                """);
        assertTrue(msg.startsWith(".dlprof-lint.yml:2: 'packs.dlprof': a pack entry must be a version"), msg);
    }

    @Test
    void suppressionNeedsAReasonAndAValidDate() throws IOException {
        String noReason = error("""
                suppressions:
                  - rule: dlprof/amp-not-used
                    subject: "*"
                """);
        assertTrue(noReason.contains("'suppressions[0]'") && noReason.contains("reason"), noReason);
        String badDate = error("""
                suppressions:
                  - rule: dlprof/amp-not-used
                    reason: accepted
                    expires: next week
                """);
        assertTrue(badDate.startsWith(".dlprof-lint.yml:") && badDate.contains("'expires' must be a date"), badDate);
    }

    @Test
    void yamlSyntaxErrorNamesTheLine() throws IOException {
        String msg = error("""
                rules:
                  enable: [a, b
                packs: {}
                """);
        assertTrue(msg.matches("\\.dlprof-lint\\.yml:\\d+: not valid YAML: .*"), msg);
    }

    @Test
    void missingRuleDirIsAnError() throws IOException {
        String msg = error("ruleDirs: [site-rules]\n");
        assertTrue(msg.contains("ruleDirs: 'site-rules' is not a directory"), msg);
    }

    @Test
    void emptyFileIsAnEmptyConfig() throws Exception {
        LintConfig c = ConfigLoader.load(write("# nothing yet\n"));
        assertTrue(c.rules().enable().isEmpty() && c.suppressions().isEmpty());
    }

    @Test
    void discoveryWalksUpToTheRepositoryRootOnly() throws IOException {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        Files.createDirectory(repo.resolve(".git"));
        Path deep = Files.createDirectories(repo.resolve("a/b/c"));
        assertEquals(Optional.empty(), ConfigLoader.discover(deep));
        // A config above the repository root does not leak in.
        write("rules: {}\n");
        assertEquals(Optional.empty(), ConfigLoader.discover(deep));
        Path inRepo = Files.writeString(repo.resolve(".dlprof-lint.yml"), "rules: {}\n");
        assertEquals(Optional.of(inRepo), ConfigLoader.discover(deep));
        Path nearer = Files.writeString(repo.resolve("a/.dlprof-lint.yml"), "rules: {}\n");
        assertEquals(Optional.of(nearer), ConfigLoader.discover(deep));
    }

    // ------------------------------------------------------------------ severity from impact and budgets

    @Test
    void severityThresholdsGloballyAndPerRule() throws Exception {
        LintConfig c = ConfigLoader.load(write("""
                rules:
                  severityThresholds: {error: 15}
                  severity:
                    dlprof/amp-not-used: note
                    nsys/sync-api: {error: 10, warning: 2}
                    nsys/gpu-gaps: {warning: 1}
                """));
        assertEquals(new dlproflint.findings.SeverityThresholds(15, 5), c.rules().severityThresholds(), "a missing warning keeps its default");
        assertEquals(Severity.NOTE, c.rules().severityOverrides().get("dlprof/amp-not-used"));
        assertEquals(new dlproflint.findings.SeverityThresholds(10, 2), c.rules().ruleThresholds().get("nsys/sync-api"));
        assertEquals(new dlproflint.findings.SeverityThresholds(15, 1), c.rules().ruleThresholds().get("nsys/gpu-gaps"),
                "a missing error keeps the global one");
        RunConfig rc = c.toRunConfig(List.of(), List.of());
        assertEquals(c.rules().ruleThresholds(), rc.ruleThresholds());
        assertEquals(c.rules().severityThresholds(), rc.severityThresholds());
        assertEquals(dlproflint.findings.SeverityThresholds.DEFAULT, LintConfig.NONE.rules().severityThresholds());
    }

    @Test
    void malformedThresholdsNameKeyAndLine() throws IOException {
        String msg = error("""
                rules:
                  severity:
                    dlprof/amp-not-used: note
                    nsys/sync-api: {error: 20, warning: 30}
                """);
        assertEquals(".dlprof-lint.yml:4: 'rules.severity.nsys/sync-api': the warning threshold (30%) is above the error threshold (20%)", msg);
        msg = error("""
                rules:
                  severityThresholds:
                    error: 120
                """);
        assertEquals(".dlprof-lint.yml:2: 'rules.severityThresholds': the error threshold must be a share between 0 and 100, not 120", msg);
        msg = error("""
                rules:
                  severity:
                    nsys/sync-api: {error: "ten"}
                """);
        assertTrue(msg.startsWith(".dlprof-lint.yml:3: 'rules.severity.nsys/sync-api': the error threshold must be a number"), msg);
        msg = error("""
                rules:
                  severity:
                    nsys/sync-api: {eror: 10}
                """);
        assertTrue(msg.startsWith(".dlprof-lint.yml:3: 'rules.severity.nsys/sync-api': unknown key 'eror'"), msg);
        msg = error("""
                rules:
                  severityThresholds: {error: 10, warn: 2}
                """);
        assertTrue(msg.startsWith(".dlprof-lint.yml:2: unknown key 'warn' in 'rules.severityThresholds'"), msg);
    }

    @Test
    void budgetsAreReadInTheMetricsUnits() throws Exception {
        LintConfig c = ConfigLoader.load(write("""
                sarif:
                  anchor: train.py
                budgets:
                  step-time: {max: 250}
                  gpu-utilization:
                    min: 70
                  peak-memory-share: {min: 10, max: 90.5}
                """));
        assertEquals(3, c.rules().budgets().size());
        dlproflint.engine.Budget step = c.rules().budgets().get(0);
        assertEquals("step-time", step.metric());
        assertEquals(250e6, step.max(), "milliseconds in the file, nanoseconds in the fact");
        assertEquals(null, step.min());
        assertEquals(".dlprof-lint.yml:4", step.origin());
        assertEquals(70.0, c.rules().budgets().get(1).min());
        assertEquals(".dlprof-lint.yml:5", c.rules().budgets().get(1).origin());
        assertEquals(90.5, c.rules().budgets().get(2).max());
        assertEquals(c.rules().budgets(), c.toRunConfig(List.of(), List.of()).budgets());
    }

    @Test
    void malformedBudgetsNameKeyAndLine() throws IOException {
        String msg = error("""
                budgets:
                  step-time: {max: 250}
                  step-tme: {max: 250}
                """);
        assertTrue(msg.startsWith(".dlprof-lint.yml:3: 'budgets.step-tme': unknown metric 'step-tme' (known: step-time, step-time-p90,"), msg);
        msg = error("""
                budgets:
                  step-time:
                    max: 250ms
                """);
        assertEquals(".dlprof-lint.yml:3: 'budgets.step-time.max': wrong type: expected a number", msg);
        msg = error("""
                budgets:
                  gpu-utilization: {min: 80, max: 60}
                """);
        assertEquals(".dlprof-lint.yml:2: 'budgets.gpu-utilization': budget on gpu-utilization: min (80.0%) is above max (60.0%)", msg);
        msg = error("""
                budgets:
                  gpu-utilization: {min: 120}
                """);
        assertTrue(msg.startsWith(".dlprof-lint.yml:2: 'budgets.gpu-utilization': budget on gpu-utilization: min must be a share between 0 and 100"), msg);
        msg = error("""
                budgets:
                  step-time: {}
                """);
        assertEquals(".dlprof-lint.yml:2: 'budgets.step-time': needs min and/or max", msg);
        msg = error("""
                budgets:
                  step-time: {maximum: 3}
                """);
        assertTrue(msg.startsWith(".dlprof-lint.yml:2: unknown key 'maximum' in 'budgets.step-time'"), msg);
        msg = error("""
                budgets: [step-time]
                """);
        assertTrue(msg.startsWith(".dlprof-lint.yml:1: 'budgets': wrong type: expected a mapping"), msg);
    }
}
