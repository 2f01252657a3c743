package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.testing.DirectorySnapshot;
import dlproflint.testing.NsysReportFixture;
import dlproflint.testing.StandInNsys;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dlprof-lint run.nsys-rep}: the report is exported by nsys (here a stand-in that checks its arguments
 * and writes a copy of the corpus export of that very report) into a temporary folder under TMPDIR, linted,
 * and the folder removed; the report's folder stays exactly as it was.
 */
class NsysReportCliTest {
    @TempDir
    Path dir;
    Path input;
    Path tmp;
    StandInNsys nsys;

    @BeforeEach
    void setUp() throws Exception {
        NsysReportFixture fixture = NsysReportFixture.in(dir);
        input = fixture.input();
        tmp = fixture.tmp();
        Files.writeString(input.resolve("notes.txt"), "the report's folder holds other files too\n");
        nsys = fixture.standIn(null);
    }

    private CliHarness cli(String path) {
        return new CliHarness(dir).env("PATH", path).env("TMPDIR", tmp.toString());
    }

    /** A text file renamed .nsys-rep (a README) is not called a report, with or without nsys. */
    @Test
    void aTextFileNamedLikeAReportIsNotOne() throws Exception {
        Files.writeString(input.resolve("README.nsys-rep"), "# notes\n\nNot a profile.\n");
        for (String path : List.of("/usr/bin:/bin", nsys.bin() + ":/usr/bin:/bin")) {
            CliHarness.Result r = cli(path).run("input/README.nsys-rep", "--no-config");
            assertEquals(3, r.code(), r::toString);
            assertTrue(r.err().startsWith("dlprof-lint: input/README.nsys-rep: named like an Nsight Systems report, but it is not "
                    + "one (a text file); supported:"), r::toString);
        }
    }

    @Test
    void lintsTheReportLikeItsSqliteExportAndLeavesNoTrace() throws Exception {
        Map<String, String> before = DirectorySnapshot.of(input);
        CliHarness.Result viaReport = cli(nsys.bin() + ":/usr/bin:/bin").run("input/run.nsys-rep", "--no-config",
                "--report", "json=report.json", "--fail-on", "warning");
        CliHarness.Result direct = cli("/usr/bin:/bin").run(NsysReportFixture.export().toString(), "--no-config",
                "--report", "json=direct.json", "--fail-on", "warning");
        assertEquals(1, viaReport.code(), viaReport::toString);
        assertEquals(direct.code(), viaReport.code());

        assertEquals(before, DirectorySnapshot.of(input), "nothing written beside the report, nothing changed");
        assertEquals(Map.of("", "dir"), DirectorySnapshot.of(tmp), "the temporary export is removed");
        List<String> args = nsys.arguments();
        assertEquals(List.of("export", "--type", "sqlite", "--output"), args.subList(0, 4), args.toString());
        assertTrue(Path.of(args.get(4)).startsWith(tmp), "exported under TMPDIR: " + args.get(4));
        assertEquals(input.resolve("run.nsys-rep").toString(), args.get(5));

        JsonNode a = E2eFixture.json(dir.resolve("report.json")).path("profiles").get(0);
        JsonNode b = E2eFixture.json(dir.resolve("direct.json")).path("profiles").get(0);
        assertTrue(a.path("findings").size() > 0, "the corpus report has findings");
        assertEquals(b.path("findings"), a.path("findings"), "the same findings as linting the SQLite export");
        assertEquals(b.path("metrics"), a.path("metrics"));
        assertEquals(input.resolve("run.nsys-rep").toString(), a.path("path").asText(), "the report names the report, not its export");
    }

    @Test
    void dlprofReportsOfAReport() throws Exception {
        CliHarness.Result r = cli(nsys.bin() + ":/usr/bin:/bin").run("report", "input/run.nsys-rep", "--no-config",
                "--reports", "summary,iteration", "--formats", "csv", "--output-path", "out");
        assertEquals(0, r.code(), r::toString);
        assertTrue(Files.size(dir.resolve("out/dlprof_summary.csv")) > 0);
        assertTrue(Files.size(dir.resolve("out/dlprof_iteration.csv")) > 0, "per-kernel instances streamed from the export");
        assertEquals(Map.of("", "dir"), DirectorySnapshot.of(tmp), "every temporary export is removed");
    }

    @Test
    void withoutNsysOneLineSaysHowToExport() throws Exception {
        Map<String, String> before = DirectorySnapshot.of(input);
        CliHarness.Result r = cli("/usr/bin:/bin").run("input/run.nsys-rep", "--no-config");
        assertEquals(3, r.code(), r::toString);
        assertEquals(1, r.errLines().length, r::toString);
        assertEquals("dlprof-lint: input/run.nsys-rep: is an Nsight Systems report, and exporting it to SQLite needs"
                + " nsys, which is not on PATH; export it with 'nsys export --type sqlite --output run.sqlite run.nsys-rep'"
                + " and lint run.sqlite, or give nsys's path with --nsys PATH or DLPROF_LINT_NSYS", r.errLines()[0]);
        assertEquals(before, DirectorySnapshot.of(input));
    }

    @Test
    void nsysCanBeNamedByOptionOrEnvironment() throws Exception {
        CliHarness.Result option = cli("/usr/bin:/bin").run("input/run.nsys-rep", "--no-config", "--fail-on", "none",
                "--nsys", nsys.executable().toString(), "--report", "json=a.json");
        assertEquals(0, option.code(), option::toString);
        CliHarness.Result env = cli("/usr/bin:/bin").env("DLPROF_LINT_NSYS", nsys.executable().toString())
                .run("input/run.nsys-rep", "--no-config", "--fail-on", "none", "--report", "json=b.json");
        assertEquals(0, env.code(), env::toString);
        assertEquals(E2eFixture.json(dir.resolve("a.json")).path("profiles").get(0).path("findings"),
                E2eFixture.json(dir.resolve("b.json")).path("profiles").get(0).path("findings"));
        CliHarness.Result wrong = cli(nsys.bin().toString()).run("input/run.nsys-rep", "--no-config",
                "--nsys", dir.resolve("no-such-nsys").toString());
        assertEquals(3, wrong.code(), "--nsys wins over PATH, and names a file that is not there: " + wrong);
        assertTrue(wrong.err().contains("the nsys given by --nsys or DLPROF_LINT_NSYS"), wrong::toString);
        assertEquals(Map.of("", "dir"), DirectorySnapshot.of(tmp));
    }
}
