package dlproflint.cli.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.cli.CliEnv;
import dlproflint.cli.Main;
import dlproflint.facts.StackFrame;
import dlproflint.reporters.sarif.SourceLocator;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24: {@code gpt_item_sync}'s host-sync finding points at the {@code loss.item()} line (labels.yaml's
 * {@code source}: record_gpu_cases.py:117) when the recording script is in the repository, although the trace's
 * Python frames name only the line where {@code step} starts (104); without the script it stays at 104 and says why.
 */
public class CallLinesTest {
    private static final String TRACE = "pytorch-h200-2026/gpt_item_sync.pt.trace.json.gz";

    @TempDir
    Path dir;

    /** A script with {@code def step} on line 104 and its first sync call on line {@code callLine}. */
    public static List<String> script(int callLine) {
        List<String> lines = new ArrayList<>();
        for (int i = 1; i < 104; i++) lines.add("# line " + i + ": x.item() in a comment is not a call");
        lines.add("def step(model, batch, opt):  # line 104");
        while (lines.size() < callLine - 1) lines.add(lines.size() % 3 == 0 ? "" : "    out = model(batch)  # .item() here is a comment");
        lines.add("    print(loss.item())");
        lines.add("    torch.cuda.synchronize()");
        lines.add("");
        lines.add("def other():");
        lines.add("    return x.item()");
        return lines;
    }

    @Test
    void theFirstSyncCallInTheBodyOfTheFunctionTheFrameNames() throws Exception {
        Path f = Files.write(dir.resolve("train.py"), script(117));
        assertEquals(117, CallLines.callLine(f, 104, "step", CallLines.SYNC_CALL));
        // not the def of that function on that line (the file changed since the capture): nothing guessed
        assertEquals(0, CallLines.callLine(f, 103, "step", CallLines.SYNC_CALL));
        assertEquals(0, CallLines.callLine(f, 104, "train", CallLines.SYNC_CALL));
        // a call after the body ended (another function's) is not this function's
        Files.write(f, List.of("def step(a,", "         b):", "    y = a + b", "", "def other():", "    a.item()"));
        assertEquals(0, CallLines.callLine(f, 1, "step", CallLines.SYNC_CALL));
        Files.write(f, List.of("    async def step(a,", "                   b):", "        y = a.cpu()", "    z = 1"));
        assertEquals(3, CallLines.callLine(f, 1, "step", CallLines.SYNC_CALL));
    }

    /**
     * A job's ranks (or one run's profiles) naming the same frame read its file once: the lines read first serve every
     * later finding of the run, even if the file changes under it; a new run reads it again. An unreadable file is
     * remembered as such.
     */
    @Test
    void oneRunReadsEachSourceFileOnce() throws Exception {
        Path f = Files.write(dir.resolve("train.py"), script(117));
        CallLines.Sources run = new CallLines.Sources();
        assertEquals(script(117), run.lines(f).orElseThrow());
        Files.write(f, List.of("def step():", "    pass"));
        assertEquals(script(117), run.lines(f).orElseThrow(), "the run's first read serves its later findings");
        assertEquals(script(117), run.lines(dir.resolve(".").resolve("train.py")).orElseThrow(), "by normalised path");
        assertEquals(List.of("def step():", "    pass"), new CallLines.Sources().lines(f).orElseThrow(), "a new run reads again");
        assertTrue(run.lines(dir.resolve("missing.py")).isEmpty());
    }

    @Test
    void onlyFilesUnderTheRoot() throws Exception {
        Path root = Files.createDirectories(dir.resolve("repo"));
        Path src = Files.createDirectories(root.resolve("src"));
        Path inside = Files.write(src.resolve("train.py"), List.of("def step():", "    x.item()"));
        Files.write(dir.resolve("outside.py"), List.of("def step():", "    x.item()"));
        Path real = inside.toRealPath();
        assertEquals(real, SourceLocator.repositoryFile(root, frame("src/train.py")));
        assertEquals(real, SourceLocator.repositoryFile(root, frame("/workspace/job/src/train.py")), "recorded elsewhere: the trailing part");
        assertEquals(real, SourceLocator.repositoryFile(root, frame(inside.toString())));
        assertNull(SourceLocator.repositoryFile(root, frame("../outside.py")));
        assertNull(SourceLocator.repositoryFile(root, frame(dir.resolve("outside.py").toString())));
        assertNull(SourceLocator.repositoryFile(root, frame("missing.py")));
    }

    @Test
    void gptItemSyncPointsAtTheItemLineWhenTheScriptIsThere() throws Exception {
        Path trace = Corpus.file(TRACE);
        Files.write(dir.resolve("record_gpu_cases.py"), script(117));
        JsonNode sync = hostSync(lint(trace, "--report", "sarif=out.sarif"));
        assertEquals("record_gpu_cases.py", sync.path("location").path("file").asText());
        assertEquals(117, sync.path("location").path("line").asInt());
        assertTrue(sync.path("problem").asText().contains("in step() at record_gpu_cases.py:117 (the first such call"),
                sync.path("problem").asText());
        assertTrue(sync.path("problem").asText().contains("the line where step starts, 104"), sync.path("problem").asText());
        JsonNode sarif = new ObjectMapper().readTree(dir.resolve("out.sarif").toFile());
        boolean at117 = false;
        for (JsonNode r : sarif.path("runs").get(0).path("results")) {
            if (!r.path("ruleId").asText().equals("pytorch/host-sync-in-step")) continue;
            JsonNode loc = r.path("locations").get(0).path("physicalLocation");
            at117 = loc.path("artifactLocation").path("uri").asText().equals("record_gpu_cases.py")
                    && loc.path("region").path("startLine").asInt() == 117;
        }
        assertTrue(at117, "the SARIF result is on the .item() line");
    }

    @Test
    void withoutTheScriptTheFindingStaysAtTheFunctionAndSaysWhy() throws Exception {
        Path trace = Corpus.file(TRACE);
        JsonNode sync = hostSync(lint(trace));
        assertEquals(104, sync.path("location").path("line").asInt());
        assertTrue(sync.path("problem").asText().contains("the function starting at record_gpu_cases.py:104"), sync.path("problem").asText());
        // a script whose line 104 is no longer `def step` is not trusted
        Files.write(dir.resolve("record_gpu_cases.py"), List.of("def step():", "    x.item()"));
        assertEquals(104, hostSync(lint(trace)).path("location").path("line").asInt());
    }

    private static StackFrame frame(String file) {
        return new StackFrame(file, 1, "step");
    }

    private JsonNode lint(Path trace, String... more) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(new CliEnv(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                dir, Map.of("DLPROF_LINT_CACHE_DIR", Path.of("target", "hostile-kjar-cache").toAbsolutePath().toString()),
                false, LocalDate::now), args(trace, more));
        assertTrue(code == 0 || code == 1, "exit " + code + ": " + err.toString(StandardCharsets.UTF_8));
        return new ObjectMapper().readTree(dir.resolve("out.json").toFile());
    }

    private static String[] args(Path trace, String... more) {
        List<String> a = new ArrayList<>(List.of(trace.toString(), "--report", "json=out.json"));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    private static JsonNode hostSync(JsonNode report) {
        for (JsonNode f : report.path("profiles").get(0).path("findings")) {
            if (f.path("ruleId").asText().equals("pytorch/host-sync-in-step")) return f;
        }
        throw new AssertionError("no host-sync-in-step finding: " + report);
    }
}
