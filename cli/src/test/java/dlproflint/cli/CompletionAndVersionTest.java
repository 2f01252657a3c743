package dlproflint.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompletionAndVersionTest {
    @TempDir
    Path dir;

    @Test
    void bashCompletionCoversCommandsAndOptions() {
        CliHarness.Result r = new CliHarness(dir).run("completion", "bash");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().startsWith("#!/usr/bin/env bash"), r::toString);
        assertTrue(r.out().contains("complete -F _complete_dlprof-lint"), "registers the completion function");
        for (String word : new String[]{"lint", "report", "rules", "baseline", "--fail-on", "--report", "explain",
                "(\"error\" \"warning\" \"note\" \"none\")", "(\"auto\" \"always\" \"never\")"}) {
            assertTrue(r.out().contains(word), "completion knows " + word);
        }
    }

    @Test
    void unsupportedShellIsAUsageError() {
        CliHarness.Result r = new CliHarness(dir).run("completion", "fish");
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().contains("unsupported shell 'fish'"));
    }

    @Test
    void versionNamesTheToolAndItsBuildVersion() throws Exception {
        CliHarness.Result r = new CliHarness(dir).run("--version");
        assertEquals(0, r.code(), r::toString);
        String first = r.out().lines().findFirst().orElse("");
        assertEquals("dlprof-lint " + ToolVersion.get(), first);
        assertTrue(ToolVersion.get().matches("\\d+\\.\\d+\\.\\d+.*"), "version filtered from the pom: " + ToolVersion.get());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("Java ")), r::toString);
        String commit = r.out().lines().filter(l -> l.startsWith("commit ")).findFirst().orElse("");
        assertTrue(commit.matches("commit ([0-9a-f]{12}(-dirty)?|unknown)"), r::toString);
        String head = gitHead();
        if (head != null) assertEquals(head, commit.substring("commit ".length()).replace("-dirty", ""),
                "the commit the build was made from (git rev-parse)");
        // every built-in pack is listed with its version
        for (dlproflint.findings.PackInfo p : dlproflint.engine.LintEngine.load(dlproflint.engine.EngineOptions.builtinOnly().withCacheDir(dlproflint.engine.EngineOptions.defaultCacheDir())).packs()) {
            assertTrue(r.out().contains("pack " + p.id() + " " + p.version()), p + " in " + r);
        }
    }

    /** The checkout's HEAD as the build captured it, or null outside a git checkout or without git. */
    private static String gitHead() throws Exception {
        String repo = System.getenv("DLPROF_LINT_REPO");
        if (repo == null || !java.nio.file.Files.exists(Path.of(repo, ".git"))) return null;
        try {
            Process p = new ProcessBuilder("git", "-C", repo, "rev-parse", "--short=12", "HEAD").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            return p.waitFor() == 0 && out.matches("[0-9a-f]{12}") ? out : null;
        } catch (java.io.IOException e) {
            return null;
        }
    }

    @Test
    void helpShowsExamplesAndExitCodes() {
        CliHarness.Result r = new CliHarness(dir).run("--help");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("Examples:"));
        assertTrue(r.out().contains("Exit codes:"));
        // the command list shows each command's first description line only: each must be a whole sentence
        String commands = r.out().substring(r.out().indexOf("Commands:"), r.out().indexOf("Examples:"));
        String summary = "";
        for (String line : commands.lines().skip(1).toList()) {
            if (line.isBlank() || line.matches("  \\S.*")) {
                assertTrue(summary.isEmpty() || summary.endsWith("."), () -> "cut summary: " + commands);
                summary = line.strip();
            } else {
                summary += " " + line.strip();
            }
        }
        // '--help' and no arguments list the commands from their annotations alone; 'help' builds every command
        CliHarness.Result full = new CliHarness(dir).run("help");
        assertEquals(full.out(), r.out(), "the same usage as with every command's full model");
        CliHarness.Result none = new CliHarness(dir).run();
        assertEquals(2, none.code(), none::toString);
        assertEquals(full.out(), none.err());
        // the build stored that usage (StoredText), and '--help' printed it
        assertEquals(full.out(), StoredText.get(StoredText.USAGE), "the usage the build stored is the current one");
        // with colour on, picocli renders it (the stored text has none): the same words, with ANSI styles
        java.io.ByteArrayOutputStream coloured = new java.io.ByteArrayOutputStream();
        CliEnv terminal = new CliEnv(new java.io.PrintStream(coloured, true, java.nio.charset.StandardCharsets.UTF_8),
                new java.io.PrintStream(new java.io.ByteArrayOutputStream(), true), dir, java.util.Map.of("TERM", "xterm"), true,
                java.time.LocalDate::now);
        assertEquals(0, Main.run(terminal, "--help"));
        String ansi = coloured.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(ansi.contains("\u001B["), "styled: " + ansi);
        assertEquals(full.out(), ansi.replaceAll("\u001B\\[[0-9;]*m", ""), "the same usage, unstyled");
        CliHarness.Result lint = new CliHarness(dir).run("lint", "--help");
        assertEquals(0, lint.code(), lint::toString);
        assertTrue(lint.out().contains("--fail-on"));
    }

    @Test
    void theBuiltInRuleListIsTheStoredOneOnlyWhereNothingCouldChangeIt() throws java.io.IOException {
        java.nio.file.Path repo = dir.resolve("repo");
        java.nio.file.Files.createDirectories(repo.resolve(".git")); // no configuration file is looked for above it
        // no configuration file, no option: the list the build stored (StoredText), which is the rendered one
        CliHarness.Result stored = new CliHarness(repo).run("rules", "list");
        CliHarness.Result rendered = new CliHarness(repo).run("rules", "list", "--no-config");
        assertEquals(0, stored.code(), stored::toString);
        assertEquals(rendered.out(), stored.out());
        assertEquals(StoredText.get(StoredText.RULES_LIST), stored.out(), "the build stored the current list");
        assertTrue(stored.out().contains("pack pytorch ") && stored.out().contains("pytorch/host-sync-in-step"), stored::toString);
        // a configuration file found here changes the list: rendered, not stored
        java.nio.file.Files.writeString(repo.resolve(".dlprof-lint.yml"), "packs:\n  regression: false\n");
        CliHarness.Result configured = new CliHarness(repo).run("rules", "list");
        assertEquals(0, configured.code(), configured::toString);
        assertFalse(configured.out().contains("regression/"), configured::toString);
        assertTrue(configured.out().contains("pytorch/host-sync-in-step"), configured::toString);
    }
}
