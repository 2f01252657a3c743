package dlproflint.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mistakes on the command line: one clear line on stderr, exit 2 (or 3 for a missing profile), found
 * before any rule pack compiles or any profile is read — so these run without the engine or readers.
 */
class UsageErrorsTest {
    @TempDir
    Path dir;
    Path profile;
    CliHarness cli;

    @BeforeEach
    void setUp() throws IOException {
        Files.createDirectory(dir.resolve(".git")); // keep config discovery inside the test folder
        profile = Files.write(dir.resolve("run.sqlite"), new byte[]{1, 2, 3});
        cli = new CliHarness(dir);
    }

    private static void assertOneLine(CliHarness.Result r, int code, String contains) {
        assertEquals(code, r.code(), r::toString);
        assertEquals(1, r.errLines().length, r::toString);
        assertTrue(r.err().startsWith("dlprof-lint: "), r::toString);
        assertTrue(r.err().contains(contains), r::toString);
        assertFalse(r.err().contains("\tat "), "no stack trace without --debug");
    }

    @Test
    void unknownOptionIsAUsageError() {
        assertOneLine(cli.run("run.sqlite", "--bogus"), 2, "Unknown option: '--bogus'");
    }

    @Test
    void unknownReportFormatIsAUsageError() {
        assertOneLine(cli.run("run.sqlite", "--report", "pdf=out.pdf"), 2, "unknown report format 'pdf'");
    }

    @Test
    void unknownFailOnLevelIsAUsageError() {
        assertOneLine(cli.run("run.sqlite", "--fail-on", "fatal"), 2, "expected error, warning, note or none, not 'fatal'");
    }

    @Test
    void noArgumentsPrintsUsageAndExits2() {
        CliHarness.Result r = cli.run();
        assertEquals(2, r.code());
        assertTrue(r.err().contains("Usage: dlprof-lint"), r::toString);
    }

    @Test
    void onlyOneReportMayGoToStdout() {
        assertOneLine(cli.run("run.sqlite", "--report", "text", "--report", "json=-"), 2, "only one report may go to stdout");
    }

    @Test
    void reportPathEqualToTheProfileIsRefused() throws IOException {
        byte[] before = Files.readAllBytes(profile);
        assertOneLine(cli.run("run.sqlite", "--report", "json=run.sqlite"), 2, "would overwrite the input profile");
        assertOneLine(cli.run("run.sqlite", "--report", "json=./sub/../run.sqlite"), 2, "would overwrite the input profile");
        assertEquals(before.length, Files.readAllBytes(profile).length);
    }

    @Test
    void reportPathThatIsTheProfileThroughALinkIsRefused() throws IOException {
        Files.createSymbolicLink(dir.resolve("link.json"), profile);
        assertOneLine(cli.run("run.sqlite", "--report", "json=link.json"), 2, "would overwrite the input profile");
    }

    @Test
    void reportInAMissingFolderFailsBeforeExtraction() {
        CliHarness.Result r = cli.run("run.sqlite", "--report", "sarif=missing/dir/out.sarif");
        assertOneLine(r, 2, "does not exist");
        assertTrue(r.err().contains("missing"), r::toString);
        assertFalse(Files.exists(dir.resolve("missing")));
    }

    @Test
    void twoReportsOnTheSameFileAreRefused() {
        assertOneLine(cli.run("run.sqlite", "--report", "json=a.out", "--report", "csv=./a.out"), 2, "same file");
    }

    @Test
    void reversedIterationRangeIsAUsageError() {
        assertOneLine(cli.run("run.sqlite", "--iter-start", "9", "--iter-stop", "3"), 2, "--iter-stop (3) is before --iter-start (9)");
    }

    @Test
    void configAndNoConfigTogetherAreAUsageError() {
        assertOneLine(cli.run("run.sqlite", "--config", "x.yml", "--no-config"), 2, "cannot be used together");
    }

    @Test
    void missingConfigFileIsAUsageError() {
        assertOneLine(cli.run("run.sqlite", "--config", "nope.yml"), 2, "configuration file not found");
    }

    @Test
    void missingBaselineFileIsAUsageError() {
        assertOneLine(cli.run("run.sqlite", "--baseline", "known.json"), 2, "baseline file not found");
    }

    @Test
    void malformedBaselineFileIsAUsageError() throws IOException {
        Files.writeString(dir.resolve("known.json"), "{\"findings\": 7}");
        assertOneLine(cli.run("run.sqlite", "--baseline", "known.json"), 2, "not a dlprof-lint baseline");
    }

    @Test
    void missingProfileExits3WithOneLine() {
        assertOneLine(cli.run("nope.sqlite"), 3, "dlprof-lint: nope.sqlite: no such file");
    }

    @Test
    void controlCharactersInNamesDoNotReachTheTerminal() {
        CliHarness.Result r = cli.run("evil\u001b[2Jname.sqlite");
        assertOneLine(r, 3, "evil?[2Jname.sqlite: no such file");
        assertFalse(r.err().contains("\u001b"));
    }

    @Test
    void folderWithoutProfilesExits3() throws IOException {
        // a folder is linted profile by profile (InputsCliTest); one without any profile is an error
        Files.createDirectory(dir.resolve("runs"));
        assertOneLine(cli.run("runs"), 3, "runs: no profile in this folder (it is empty)");
    }

    @Test
    void unknownReportTypeOfDlprofReportsIsAUsageError() {
        assertOneLine(cli.run("report", "run.sqlite", "--reports", "summary,bogus"), 2, "unknown report 'bogus'");
    }

    @Test
    void baselineOutputOverTheProfileIsRefused() {
        assertOneLine(cli.run("baseline", "run.sqlite", "--output", "run.sqlite"), 2, "would overwrite the input profile");
    }

    @Test
    void debugShowsTheStackTrace() {
        CliHarness.Result r = cli.run("run.sqlite", "--report", "json=missing/out.json", "--debug");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("\tat "), r::toString);
    }
}
