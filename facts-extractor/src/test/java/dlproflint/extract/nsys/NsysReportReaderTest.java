package dlproflint.extract.nsys;

import dlproflint.extract.FileSniff;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import dlproflint.testing.DirectorySnapshot;
import dlproflint.testing.NsysReportFixture;
import dlproflint.testing.StandInNsys;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code .nsys-rep} input through a stand-in {@code nsys} ({@link StandInNsys}): the report is exported into a
 * private temporary folder, read, and the folder removed; the report's own folder is never written to.
 */
class NsysReportReaderTest {
    static final String REPORT = NsysReportFixture.REPORT;
    static final String EXPORT = NsysReportFixture.EXPORT;

    @TempDir
    Path dir;
    NsysReportFixture fixture;
    Path input;
    Path tmp;
    Path report;

    @BeforeEach
    void copyReport() throws Exception {
        fixture = NsysReportFixture.in(dir);
        input = fixture.input();
        tmp = fixture.tmp();
        report = fixture.report();
    }

    private ReadOptions options(StandInNsys nsys) {
        return new ReadOptions(null, null, null, NsysTool.fromEnvironment(
                Map.of("PATH", nsys.bin() + ":/usr/bin:/bin", "TMPDIR", tmp.toString()), null));
    }

    @Test
    void everyCorpusReportIsRecognisedByItsHeader() throws Exception {
        for (String r : List.of(REPORT, "mohanadodema-dlprof/root/nsys_profile.nsys-rep")) {
            Path f = Corpus.file(r);
            assertTrue(FileSniff.of(f).isNsysReport(), r);
            assertInstanceOf(NsysReportReader.class, ProfileReaders.discover().readerFor(f), r);
        }
        Path renamed = Files.copy(Corpus.file(REPORT), dir.resolve("report.bin"));
        assertInstanceOf(NsysReportReader.class, ProfileReaders.discover().readerFor(renamed), "content, not the name");
        assertFalse(FileSniff.of(Corpus.file(EXPORT)).isNsysReport());
    }

    @Test
    void readsTheExportInATemporaryFolderAndRemovesIt() throws Exception {
        StandInNsys nsys = fixture.standIn(null);
        Map<String, String> before = DirectorySnapshot.of(input);

        ProfileFacts viaReport = ProfileReaders.discover().read(report, options(nsys));
        ProfileFacts direct = ProfileReaders.discover().read(Corpus.file(EXPORT), ReadOptions.DEFAULT);

        List<String> args = nsys.arguments();
        assertEquals(6, args.size(), args.toString());
        assertEquals(List.of("export", "--type", "sqlite", "--output"), args.subList(0, 4));
        Path out = Path.of(args.get(4));
        assertEquals(tmp.toRealPath(), out.getParent().getParent().toRealPath(), "exported under TMPDIR: " + out);
        assertEquals("run.sqlite", out.getFileName().toString());
        assertEquals(report.toAbsolutePath().toString(), args.get(5));

        assertEquals(before, DirectorySnapshot.of(input), "the report's folder is unchanged");
        assertEquals(Map.of("", "dir"), DirectorySnapshot.of(tmp), "the temporary export is removed");
        assertEquals(report.toString(), viaReport.profile().path(), "the facts name the report");
        assertEquals(value(direct), value(viaReport.withProfile(direct.profile())), "the same facts as the SQLite export read directly");
    }

    /** Records as nested lists of their components, arrays by content (a GpuTimeline holds a long[]), for equality. */
    static Object value(Object o) throws ReflectiveOperationException {
        if (o == null) return null;
        if (o.getClass().isRecord()) {
            List<Object> parts = new ArrayList<>();
            parts.add(o.getClass().getSimpleName());
            for (RecordComponent c : o.getClass().getRecordComponents()) parts.add(value(c.getAccessor().invoke(o)));
            return parts;
        }
        if (o instanceof long[] a) return Arrays.toString(a);
        if (o instanceof Collection<?> c) {
            List<Object> parts = new ArrayList<>();
            for (Object x : c) parts.add(value(x));
            return parts;
        }
        return o;
    }

    @Test
    void withoutNsysTheMessageSaysHowToExport() throws Exception {
        ReadOptions noNsys = new ReadOptions(null, null, null,
                NsysTool.fromEnvironment(Map.of("PATH", dir.resolve("empty-bin").toString()), null));
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileReaders.discover().read(report, noNsys));
        assertEquals("is an Nsight Systems report, and exporting it to SQLite needs nsys, which is not on PATH;"
                + " export it with 'nsys export --type sqlite --output run.sqlite run.nsys-rep' and lint run.sqlite,"
                + " or give nsys's path with --nsys PATH or DLPROF_LINT_NSYS", e.getMessage());
        assertEquals(report, e.file());

        ReadOptions wrong = new ReadOptions(null, null, null,
                NsysTool.fromEnvironment(Map.of(NsysTool.ENV, "/opt/nvidia/no-such/nsys"), null));
        ProfileException named = assertThrows(ProfileException.class, () -> ProfileReaders.discover().read(report, wrong));
        assertTrue(named.getMessage().contains("the nsys given by --nsys or DLPROF_LINT_NSYS (/opt/nvidia/no-such/nsys) is not an executable file"),
                named.getMessage());
    }

    @Test
    void aFailedExportNamesNsysMessageAndLeavesNothing() throws Exception {
        StandInNsys nsys = fixture.standIn("Importer error: unsupported report version");
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileReaders.discover().read(report, options(nsys)));
        assertEquals("nsys export failed (exit 1): Importer error: unsupported report version;"
                + " is it an Nsight Systems report this nsys can read?", e.getMessage());
        assertEquals(Map.of("", "dir"), DirectorySnapshot.of(tmp), "the temporary folder is removed after a failure too");
    }

    @Test
    void theOptionBeatsTheEnvironment() throws Exception {
        StandInNsys nsys = fixture.standIn(null);
        NsysTool tool = NsysTool.fromEnvironment(Map.of(NsysTool.ENV, "/nowhere/nsys", "TMPDIR", tmp.toString()),
                nsys.executable().toString());
        assertEquals(nsys.executable().toAbsolutePath(), tool.resolve().orElseThrow());
        ProfileFacts facts = ProfileReaders.discover().read(report, new ReadOptions(null, null, null, tool));
        assertEquals("nsys-sqlite", facts.profile().format());
    }
}
