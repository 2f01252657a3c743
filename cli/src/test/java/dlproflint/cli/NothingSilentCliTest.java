package dlproflint.cli;

import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the text report must not keep to itself: reader warnings, a profile without GPU work, why a finding has no line. */
class NothingSilentCliTest {
    @TempDir
    Path dir;

    @Test
    void aProfileWithoutGpuWorkSaysSoAndShowsTheReadersWarnings() {
        Path uvm = Corpus.file("uvmtorch-nsys2025/report1.sqlite");
        CliHarness.Result r = new CliHarness(dir).run(uvm.toString(), "--no-config", "--fail-on", "none");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("warning: the profile contains no CUDA kernels"), r.out());
        assertTrue(r.out().contains("no GPU work: the profile holds no kernels, copies or memsets"), r.out());
        assertFalse(r.out().matches("(?s).*\n  no findings: .*"), "never a bare 'no findings' for it: " + r.out());
    }

    /** A schema newer than the readers know is read as far as it goes, and the report says so. */
    @Test
    void anExportSchemaNewerThanKnownIsAWarningInTheReport() throws Exception {
        Path copy = dir.resolve("future.sqlite");
        Files.copy(Corpus.file("llama3-inference-nsys2024/real_inference_simulation.sqlite"), copy);
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + copy);
             java.sql.Statement st = c.createStatement()) {
            st.execute("UPDATE META_DATA_EXPORT SET value = '4.0.0' WHERE name = 'EXPORT_SCHEMA_VERSION'");
        }
        CliHarness.Result r = new CliHarness(dir).run("future.sqlite", "--no-config", "--fail-on", "none");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("warning: export schema 4.0.0 is newer than the newest this reader knows (3.x, nsys 2025.x)"),
                r.out());
        CliHarness.Result known = new CliHarness(dir).run(Corpus.file("llama3-inference-nsys2024/real_inference_simulation.sqlite")
                .toString(), "--no-config", "--fail-on", "none");
        assertFalse(known.out().contains("is newer than the newest"), known.out());
    }

    @Test
    void everyFindingSaysWhereItIsOrWhyItHasNoLine() {
        Path nsys = Corpus.file("llama3-inference-nsys2024/real_inference_simulation.sqlite");
        CliHarness.Result r = new CliHarness(dir).run(nsys.toString(), "--no-config", "--fail-on", "none");
        Matcher findings = Pattern.compile("\n  (ERROR|WARNING|NOTE) ").matcher(r.out());
        int n = 0;
        while (findings.find()) n++;
        int reasons = r.out().split("no source line: no call stacks in this profile: record with nsys profile "
                + "--cudabacktrace=all --python-backtrace=cuda", -1).length - 1;
        assertTrue(n > 0);
        assertEquals(n, reasons, r.out());
        Path kineto = Corpus.file("kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
        CliHarness.Result withStacks = new CliHarness(dir).run(kineto.toString(), "--no-config", "--fail-on", "none");
        assertTrue(withStacks.out().contains("at: resnet50_profiler_api.py:46 in <module>"), withStacks.out());
        assertFalse(withStacks.out().contains("no source line"), withStacks.out());
    }

    /**
     * docs/ci.md's baseline command, as written there (with {@code > FILE} as the shell would redirect stdout, or
     * {@code --output FILE}), then a lint that uses the baseline. It did not work as documented when the doc wrote
     * {@code > .dlprof-baseline.json} and {@code --output} was required; now both forms work.
     */
    @Test
    void theDocumentedBaselineCommandWorksAsWritten() throws Exception {
        String doc = Files.readString(Corpus.repoRoot().resolve("docs/ci.md"));
        Matcher m = Pattern.compile("`dlprof-lint (baseline\\s[^`]*)`").matcher(doc);
        assertTrue(m.find(), "docs/ci.md documents a 'dlprof-lint baseline' command");
        String command = m.group(1).replaceAll("\\s+", " ").strip();
        Files.createDirectories(dir.resolve("profiles"));
        Files.copy(Corpus.file("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite"), dir.resolve("profiles/train.sqlite"));
        for (String form : List.of(command, command.contains(" > ") ? command.replace(" > ", " --output ")
                : command.replace(" --output ", " > "))) {
            String[] redirect = form.split(" > ");
            String file = redirect.length == 2 ? redirect[1].strip() : form.replaceAll(".* --output (\\S+).*", "$1");
            Files.deleteIfExists(dir.resolve(file));
            CliHarness.Result recorded = new CliHarness(dir).run(redirect[0].strip().split(" "));
            assertEquals(0, recorded.code(), form + ": " + recorded);
            if (redirect.length == 2) Files.writeString(dir.resolve(file), recorded.out());
            assertTrue(Files.readString(dir.resolve(file)).contains("\"findings\""), form);
            CliHarness.Result lint = new CliHarness(dir).run("profiles/train.sqlite", "--baseline", file, "--fail-on", "note",
                    "--report", "json=out.json");
            assertEquals(0, lint.code(), form + ": every finding is known: " + lint);
            assertTrue(lint.err().matches("(?s).*0 findings \\(\\d+ suppressed or baselined\\) in 1 profile.*"), lint.err());
        }
    }
}
