package dlproflint.reporters;

import dlproflint.findings.LintRun;
import dlproflint.reporters.sarif.SarifOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportersTest {
    @TempDir
    Path repo;

    @Test
    void builtInFormatsAreRegistered() {
        assertTrue(Reporters.formats().containsAll(List.of("text", "json", "sarif", "csv", "expert-systems-csv", "markdown",
                        "codequality")),
                Reporters.formats().toString());
        for (String f : Reporters.formats()) assertNotNull(Reporters.create(f, ReportOptions.PLAIN), f);
    }

    @Test
    void unknownFormatNamesTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Reporters.create("xml", ReportOptions.PLAIN));
        assertTrue(e.getMessage().startsWith("unknown report format 'xml' (expected one of codequality, csv, "), e.getMessage());
        assertFalse(Reporters.isKnown("xml"));
    }

    @Test
    void everyFormatRendersAndWritesAtomically() throws IOException {
        Files.writeString(repo.resolve("train.py"), "pass\n");
        ReportOptions options = new ReportOptions(new SarifOptions(repo, Path.of("train.py")));
        LintRun run = TestRuns.single("/data/nsys_profile.sqlite");
        for (String f : List.of("text", "json", "sarif", "csv", "expert-systems-csv", "markdown", "codequality")) {
            Reporter r = Reporters.create(f, options);
            Path target = repo.resolve("report." + f);
            dlproflint.reporters.io.AtomicFiles.write(target, out -> r.render(run, out));
            assertTrue(Files.size(target) > 50, f);
            ByteArrayOutputStream again = new ByteArrayOutputStream();
            r.render(run, again);
            assertEquals(new String(again.toByteArray(), java.nio.charset.StandardCharsets.UTF_8),
                    Files.readString(target), f + " renders the same bytes twice");
        }
    }

    @Test
    void failedReportLeavesNoFile() throws IOException {
        Path target = repo.resolve("out.sarif");
        Reporter sarif = Reporters.create("sarif", new ReportOptions(SarifOptions.of(repo)));
        assertThrows(ReportException.class, () -> dlproflint.reporters.io.AtomicFiles.write(target,
                out -> sarif.render(TestRuns.single("/elsewhere/p.sqlite"), out)));
        try (var files = Files.list(repo)) {
            assertEquals(List.of(), files.toList(), "neither the report nor its temporary file");
        }
    }

    @Test
    void stemsAreShortAndUnique() {
        assertEquals(List.of("nsys_profile"), ProfileNames.uniqueStems(List.of("/a/nsys_profile.sqlite")));
        assertEquals(List.of("rank0-nsys_profile", "rank1-nsys_profile"),
                ProfileNames.uniqueStems(List.of("/x/rank0/nsys_profile.sqlite", "/x/rank1/nsys_profile.sqlite")));
        assertEquals(List.of("run-p-1", "run-p-2"), ProfileNames.uniqueStems(List.of("/a/run/p.sqlite", "/b/run/p.sqlite")));
        assertEquals(List.of("trace", "my_profile"), ProfileNames.uniqueStems(List.of("trace.pt.trace.json", "my profile.nsys-rep")));
    }

    @Test
    void formatsAreLocaleIndependent() {
        java.util.Locale saved = java.util.Locale.getDefault();
        try {
            java.util.Locale.setDefault(java.util.Locale.GERMANY);
            assertEquals("1.23 s", Formats.duration(1_234_567_890L));
            assertEquals("42.5%", Formats.pct(42.5));
            assertEquals("0.0%", Formats.pct(0.0204), "DLProf-style: a near-zero share still shows its decimal");
        } finally {
            java.util.Locale.setDefault(saved);
        }
    }
}
