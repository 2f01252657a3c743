package dlproflint.cli;

import dlproflint.testing.Corpus;
import dlproflint.testing.StandInNsys;
import dlproflint.testing.TorchPython;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every shell example of README.md and docs/*.md that starts with {@code ./dlprof-lint} or {@code dlprof-lint} runs,
 * with the real command, in a scratch folder where the file names the examples use are the bundled example profile
 * (every {@code *.sqlite}), real corpus traces ({@code trace.json.gz}, the ranks under {@code traces/}), a real
 * Nsight Systems report exported by a stand-in nsys, the example site pack, and a tiny {@code train.py} run by
 * Debian's PyTorch. An example passes when it ran (exit 0, or 1 for findings); the few that cannot run here end with
 * the documented code this machine gives them ({@link #EXPECTED}). A synopsis line ({@code dlprof-lint [lint]
 * PROFILE... [--report ...]}) is not an example; what follows a pipe or a redirection is left to the shell.
 */
@Timeout(1200)
class DocsExamplesTest {
    /**
     * Examples that cannot end with 0 or 1 on a machine without a GPU, with the documented exit code they give here
     * and why: a fragment of the command line → code.
     */
    static final Map<String, Integer> EXPECTED = Map.of(
            // nsys profile needs a GPU and Nsight Systems; the stand-in nsys here only exports: the training command fails
            "run --nsys", ExitCodes.RUN);

    /** A fenced block's shell example, with where it is. */
    record Example(String file, int line, String command) {
        @Override
        public String toString() {
            return file + ":" + line + ": " + command;
        }
    }

    @TempDir
    Path dir;

    /** Every example of the documentation, in order. */
    static List<Example> examples(Path repo) throws IOException {
        List<Path> files = new ArrayList<>(List.of(repo.resolve("README.md")));
        try (Stream<Path> docs = Files.list(repo.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<Example> out = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            String block = null;
            for (int i = 0; i < lines.size(); i++) {
                Matcher fence = Pattern.compile("^\\s*```(\\w*)").matcher(lines.get(i));
                if (fence.find()) {
                    block = block == null ? fence.group(1) : null;
                    continue;
                }
                if (block == null || !List.of("", "bash", "sh", "shell", "console").contains(block)) continue;
                String s = lines.get(i).strip();
                if (s.startsWith("$ ")) s = s.substring(2);
                if (!s.startsWith("./dlprof-lint ") && !s.startsWith("dlprof-lint ")) continue;
                int first = i + 1;
                while (s.endsWith("\\") && i + 1 < lines.size()) s = s.substring(0, s.length() - 1) + " " + lines.get(++i).strip();
                if (synopsis(s)) continue;
                out.add(new Example(repo.relativize(f).toString(), first, s));
            }
        }
        return out;
    }

    /** A usage synopsis or a command's output, not a command: {@code [--option]}, {@code PROFILE...}, alternatives. */
    static boolean synopsis(String s) {
        String beforePipe = s.contains(" | ") ? s.substring(0, s.indexOf(" | ")) : s;
        return beforePipe.contains("[") || beforePipe.contains("...") || s.contains(" | rules ") || s.contains(" | --")
                || s.matches("dlprof-lint \\d+\\.\\d+.*");
    }

    /** The command's words: the shell's quoting undone, a comment, a pipe and a redirection cut off. */
    static List<String> words(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean any = false;
        char quote = 0;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (quote != 0) {
                if (c == quote) quote = 0;
                else w.append(c);
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
                any = true;
            } else if (c == '#' && w.isEmpty() || c == '|' || c == '>' || c == '<') {
                break;
            } else if (Character.isWhitespace(c)) {
                if (any || !w.isEmpty()) words.add(w.toString());
                w.setLength(0);
                any = false;
            } else {
                w.append(c);
            }
        }
        if (any || !w.isEmpty()) words.add(w.toString());
        return words;
    }

    @Test
    void everyDocumentedExampleRuns() throws Exception {
        Path repo = Corpus.repoRoot();
        List<Example> examples = examples(repo);
        assertTrue(examples.size() >= 40, "the README's and docs' examples: " + examples.size());
        Path sandbox = sandbox(repo);
        String path = sandbox.resolve("bin") + ":/usr/bin:/bin";
        List<String> failures = new ArrayList<>();
        for (Example e : examples) {
            List<String> args = new ArrayList<>(words(e.command()));
            args.remove(0); // ./dlprof-lint
            CliHarness.Result r = new CliHarness(sandbox).env("PATH", path).env("HOME", sandbox.toString())
                    .env("TMPDIR", Files.createDirectories(dir.resolve("tmp")).toString()).run(args.toArray(String[]::new));
            Integer expected = EXPECTED.entrySet().stream().filter(x -> e.command().contains(x.getKey())).map(Map.Entry::getValue)
                    .findFirst().orElse(null);
            boolean ok = expected != null ? r.code() == expected : r.code() == ExitCodes.OK || r.code() == ExitCodes.FINDINGS;
            System.out.println("docs example " + e + " -> exit " + r.code());
            if (!ok) failures.add(e + "\n  exit " + r.code() + (expected != null ? " (expected " + expected + ")" : "") + "\n  "
                    + r.err().strip().replace("\n", "\n  "));
        }
        assertEquals(List.of(), failures, "examples that did not run as documented");
    }

    /**
     * The scratch folder: every file name the examples use, made of the bundled example, corpus files, the example
     * site pack, a baseline, and a tiny training script with {@code python}/{@code python3} on PATH.
     */
    private Path sandbox(Path repo) throws Exception {
        Path s = Files.createDirectories(dir.resolve("work"));
        Path example = repo.resolve("examples/resnet-like-fp32.sqlite");
        for (String p : List.of("run.sqlite", "main.sqlite", "pr.sqlite", "profile.sqlite", "rank0.sqlite", "rank1.sqlite",
                "rank2.sqlite", "rank3.sqlite", "profiles/train.sqlite", "base/train.sqlite", "run1/nsys_profile.sqlite",
                "run2/nsys_profile.sqlite", "runs/rank0.sqlite", "runs/rank1.sqlite", "bench-out/nsys-1m.sqlite",
                "examples/resnet-like-fp32.sqlite")) {
            copy(example, s.resolve(p));
        }
        copy(Corpus.file("pytorch-h200-2026/gpt_healthy.pt.trace.json.gz"), s.resolve("trace.json.gz"));
        copy(Corpus.file("pytorch-h200-2026/gpt_no_step_markers.pt.trace.json.gz"), s.resolve("legacy_trace.json"));
        for (int rank = 0; rank < 4; rank++) {
            Path trace = Corpus.file("pytorch-h200-2026/job_straggler_rank1/rank" + rank + ".pt.trace.json.gz");
            copy(trace, s.resolve("traces/rank-" + rank + ".json"));
            copy(trace, s.resolve("traces/rank-" + rank + ".json.gz"));
        }
        // a real Nsight Systems report, exported by a stand-in nsys to the export of the same capture
        copy(Corpus.file("mohanadodema-dlprof/root/nsys_profile.nsys-rep"), s.resolve("run.nsys-rep"));
        StandInNsys.create(s, Corpus.file("mohanadodema-dlprof/root/nsys_profile.sqlite"), null);
        for (String site : List.of("site-rules", "examples/site-rules")) {
            try (Stream<Path> files = Files.list(repo.resolve("examples/site-rules"))) {
                for (Path f : files.toList()) copy(f, s.resolve(site).resolve(f.getFileName()));
            }
        }
        // the training script the run examples name, and the interpreters they call, with PyTorch
        Files.writeString(s.resolve("train.py"), RunCommandTest.TINY_TRAIN.replace("int(sys.argv[1]) if len(sys.argv) > 1 else 20", "20"));
        Files.createDirectories(s.resolve("mypkg"));
        Files.writeString(s.resolve("mypkg/__init__.py"), "");
        Files.writeString(s.resolve("mypkg/train.py"), """
                import torch, torch.nn as nn
                m = nn.Linear(8, 2)
                opt = torch.optim.SGD(m.parameters(), lr=0.1)
                def train_step():
                    opt.zero_grad(); m(torch.randn(4, 8)).sum().backward(); opt.step()
                for _ in range(20):
                    train_step()
                """);
        Path python = TorchPython.interpreter();
        for (String name : List.of("python", "python3")) {
            Files.createSymbolicLink(s.resolve("bin").resolve(name), python);
        }
        CliHarness.Result baseline = new CliHarness(s).run("baseline", "run.sqlite", "--output", ".dlprof-baseline.json");
        assertEquals(0, baseline.code(), baseline::toString);
        return s;
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void theExampleParserTellsExamplesFromSynopses() {
        assertTrue(synopsis("dlprof-lint [lint] PROFILE... [--report FORMAT[=PATH]]..."));
        assertTrue(synopsis("dlprof-lint rules list | rules explain ID | rules test DIR"));
        assertTrue(synopsis("dlprof-lint --version | --help"));
        assertTrue(synopsis("dlprof-lint 0.1.0"));
        assertTrue(!synopsis("dlprof-lint run.sqlite --report json | jq '.profiles[0].findings[].ruleId'"));
        assertEquals(List.of("./dlprof-lint", "run.sqlite", "--report", "json"),
                words("./dlprof-lint run.sqlite --report json | jq '.profiles[0]'"));
        assertEquals(List.of("dlprof-lint", "job", "traces/rank-*.json.gz", "--fail-on", "warning"),
                words("dlprof-lint job 'traces/rank-*.json.gz' --fail-on warning   # a comment"));
        assertEquals(List.of("./dlprof-lint", "run.sqlite", "--report", "markdown"),
                words("./dlprof-lint run.sqlite --report markdown >> \"$GITHUB_STEP_SUMMARY\""));
    }
}
