package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Profile arguments that are not plain files: {@code -} (standard input) and folders. */
class InputsCliTest {
    @TempDir
    Path dir;

    private static long spools() throws Exception {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("dlprof-lint-stdin-")).count();
        }
    }

    @Test
    void aProfileOnStandardInputIsReadByContentAndNamedStdin() throws Exception {
        new E2eFixture(dir);
        byte[] trace = Files.readAllBytes(Corpus.file(
                "kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"));
        long before = spools();
        CliHarness.Result r = new CliHarness(dir).stdin(trace).run("-", "--no-config", "--report", "json", "--fail-on", "none");
        assertEquals(0, r.code(), r::toString);
        JsonNode p = E2eFixture.JSON.readTree(r.out()).path("profiles").get(0);
        assertEquals("stdin", p.path("name").asText());
        assertEquals("stdin", p.path("path").asText());
        assertEquals("kineto", p.path("format").asText(), "gzip-compressed JSON recognised from its bytes");
        assertTrue(p.path("findings").size() > 0);
        assertEquals(before, spools(), "the spooled copy is removed");
        try (Stream<Path> s = Files.list(dir)) {
            assertTrue(s.noneMatch(f -> f.getFileName().toString().startsWith("dlprof-lint-stdin")), "never next to an input");
        }
    }

    @Test
    void standardInputTwiceOrEmpty() throws Exception {
        new E2eFixture(dir);
        CliHarness.Result twice = new CliHarness(dir).run("-", "-");
        assertEquals(2, twice.code(), twice::toString);
        assertTrue(twice.err().contains("'-' (standard input) can be given only once"), twice.err());
        CliHarness.Result empty = new CliHarness(dir).stdin(new byte[0]).run("-");
        assertEquals(3, empty.code(), empty::toString);
        assertEquals("dlprof-lint: -: standard input is empty (nothing was piped in, or it was closed)", empty.err().strip());
    }

    @Test
    void aFolderIsLintedProfileByProfileInNameOrderSkippingOtherFiles() throws Exception {
        new E2eFixture(dir);
        Path runs = Files.createDirectories(dir.resolve("runs"));
        Files.copy(dir.resolve("trace.json"), runs.resolve("rank1.json"));
        Files.copy(Corpus.file("hta/tests/data/trace_compare/base/base.json.gz"), runs.resolve("rank0.pt.trace.json.gz"));
        Files.writeString(runs.resolve("notes.txt"), "profiled on node 7\n");
        Files.write(runs.resolve("empty.json"), new byte[0]);
        // JSON that is no trace, as kept beside traces (a labelled corpus folder's labels, a tool's settings)
        Files.writeString(runs.resolve("labels.json"), "{\"cases\": {\"gpt_healthy\": {\"expect\": []}}}\n");
        Files.writeString(runs.resolve("names.json"), "[\"rank0\", \"rank1\"]\n");
        Files.createDirectories(runs.resolve("old"));
        Files.copy(dir.resolve("trace.json"), runs.resolve("old").resolve("rank9.json"));
        CliHarness.Result r = new CliHarness(dir).run("runs", "--rules", "site-pack", "--report", "json", "--fail-on", "none");
        assertEquals(0, r.code(), r::toString);
        List<String> names = new java.util.ArrayList<>();
        for (JsonNode p : E2eFixture.JSON.readTree(r.out()).path("profiles")) names.add(p.path("name").asText());
        assertEquals(List.of("rank0", "rank1"), names, "by name; subfolders not entered");
        assertTrue(r.err().contains("dlprof-lint: note: runs/notes.txt: skipped, unrecognised profile format"), r.err());
        assertTrue(r.err().contains("dlprof-lint: note: runs/empty.json: skipped, empty file"), r.err());
        assertTrue(r.err().contains("dlprof-lint: note: runs/labels.json: skipped, a JSON object without 'traceEvents'"), r.err());
        assertTrue(r.err().contains("dlprof-lint: note: runs/names.json: skipped, a JSON array whose first element is not an "
                + "event object"), r.err());
    }

    @Test
    void aFolderWithoutProfilesIsAnError() throws Exception {
        new E2eFixture(dir);
        Path runs = Files.createDirectories(dir.resolve("runs"));
        CliHarness.Result empty = new CliHarness(dir).run("runs");
        assertEquals(3, empty.code(), empty::toString);
        assertTrue(empty.err().contains("runs: no profile in this folder (it is empty)"), empty.err());
        Files.writeString(runs.resolve("notes.txt"), "x");
        CliHarness.Result other = new CliHarness(dir).run("runs");
        assertEquals(3, other.code());
        assertTrue(other.err().contains("runs: no profile in this folder (1 file skipped: not a supported profile)"), other.err());
    }

    @Test
    void reportTakesOneFileNotAFolder() throws Exception {
        new E2eFixture(dir);
        Files.createDirectories(dir.resolve("runs"));
        CliHarness.Result r = new CliHarness(dir).run("report", "runs", "--output-path", "out");
        assertEquals(3, r.code(), r::toString);
        assertFalse(Files.exists(dir.resolve("out")), "nothing written");
    }
}
