package dlproflint.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A corpus Nsight Systems report copied to {@code input/run.nsys-rep} in a test folder, a {@code tmp/} folder
 * to serve as TMPDIR, and stand-in {@code nsys} executables that export it by copying the corpus SQLite export
 * of that very capture ({@code w_Relu}). Skips (or under CI fails) like {@link Corpus} when the corpus is absent.
 *
 * @param input  the report's own folder, which a run must leave as it was
 * @param tmp    the TMPDIR the export goes to, empty again after a run
 * @param report {@code input/run.nsys-rep}
 */
public record NsysReportFixture(Path dir, Path input, Path tmp, Path report) {
    public static final String REPORT = "mohanadodema-dlprof/w_Relu/nsys_profile.nsys-rep";
    public static final String EXPORT = "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite";

    public static NsysReportFixture in(Path dir) throws IOException {
        Path input = Files.createDirectories(dir.resolve("input"));
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path report = Files.copy(Corpus.file(REPORT), input.resolve("run.nsys-rep"));
        return new NsysReportFixture(dir, input, tmp, report);
    }

    /** The corpus export of the report, read directly. */
    public static Path export() {
        return Corpus.file(EXPORT);
    }

    /** A stand-in nsys that exports the report; with {@code failWith}, one that fails with that message. */
    public StandInNsys standIn(String failWith) throws IOException {
        return StandInNsys.create(dir, export(), failWith);
    }
}
