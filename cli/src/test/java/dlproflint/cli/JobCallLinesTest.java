package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.cli.source.CallLinesTest;
import dlproflint.job.JobRoster;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job's rank findings are placed at the call in the user's source by the machine the command runs on, whichever
 * backend read the ranks: here a backend that reads them as a cluster's executors do ({@link RankReader#of} from the
 * spec, no repository), on {@code gpt_item_sync}, whose trace names only the line where {@code step} starts.
 */
class JobCallLinesTest {
    @TempDir
    Path dir;

    @Test
    void ranksReadElsewhereArePlacedAtTheCallHere() throws Exception {
        Files.copy(Corpus.file("pytorch-h200-2026/gpt_item_sync.pt.trace.json.gz"), dir.resolve("rank-0.pt.trace.json.gz"));
        Files.write(dir.resolve("record_gpu_cases.py"), CallLinesTest.script(117));
        List<String> readRemotely = new ArrayList<>();
        JobBackend executors = new JobBackend() {
            @Override
            public String name() {
                return "executors";
            }

            @Override
            public List<String> expand(CliEnv env, List<String> inputs) throws CliException {
                return JobInputs.expand(env, inputs);
            }

            @Override
            public List<JobRoster.Read> readAll(List<String> profiles, Supplier<RankSpec> spec, RankReader local, int jobs) {
                RankReader remote = RankReader.of(spec.get());
                List<JobRoster.Read> out = new ArrayList<>();
                for (String p : profiles) {
                    readRemotely.add(p);
                    out.add(remote.read(p, dir.resolve(p)));
                }
                return out;
            }

            @Override
            public int parallelism() {
                return 1;
            }
        };
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(new CliEnv(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), dir,
                Map.of("DLPROF_LINT_CACHE_DIR", Path.of("target", "hostile-kjar-cache").toAbsolutePath().toString()),
                false, LocalDate::now), executors, "job", "rank-0.pt.trace.json.gz", "--report", "json=job.json", "--fail-on", "none");
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertEquals(List.of("rank-0.pt.trace.json.gz"), readRemotely);
        JsonNode sync = null;
        for (JsonNode f : new ObjectMapper().readTree(dir.resolve("job.json").toFile()).path("profiles").get(0).path("findings")) {
            if (f.path("ruleId").asText().equals("pytorch/host-sync-in-step")) sync = f;
        }
        assertTrue(sync != null, "the rank's host-sync finding is in the job's report");
        assertEquals("record_gpu_cases.py", sync.path("location").path("file").asText());
        assertEquals(117, sync.path("location").path("line").asInt(), sync.toString());
        assertTrue(sync.path("problem").asText().contains("in step() at record_gpu_cases.py:117"), sync.path("problem").asText());
    }
}
