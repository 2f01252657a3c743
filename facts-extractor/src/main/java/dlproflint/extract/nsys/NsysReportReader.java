package dlproflint.extract.nsys;

import dlproflint.extract.FileSniff;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.InstanceSink;
import dlproflint.facts.ProfileFacts;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Nsight Systems reports ({@code .nsys-rep}, formerly {@code .qdrep}), read as DLProf did: {@code nsys export}
 * turns the report into SQLite in a temporary folder ({@link NsysExport}), the SQLite reader reads it, and the
 * folder is removed. The facts name the report the user gave, not the temporary export.
 */
public final class NsysReportReader implements ProfileReader {
    public static final String FORMAT = "nsys-rep";
    private static final NsysSqliteReader SQLITE = new NsysSqliteReader();

    @Override
    public String format() {
        return FORMAT;
    }

    /**
     * The report header, or (a generation whose header we have not seen) the report's file extension on a binary
     * file: a text file, a JSON document or a gzip renamed {@code .nsys-rep} is not taken for a report.
     */
    @Override
    public boolean accepts(Path file, FileSniff sniff) {
        if (sniff.isSqlite()) return false;
        if (sniff.isNsysReport()) return true;
        return namedLikeOne(file) && !sniff.looksLikeText() && !sniff.looksLikeJson() && !sniff.isGzip();
    }

    /** Named like an Nsight Systems report ({@code .nsys-rep}, or {@code .qdrep} before 2021.4). */
    public static boolean namedLikeOne(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".nsys-rep") || name.endsWith(".qdrep");
    }

    @Override
    public ProfileFacts read(Path file, ReadOptions options) throws ProfileException {
        ReadOptions opts = options == null ? ReadOptions.DEFAULT : options;
        try (NsysExport export = NsysExport.of(file, opts.nsys(), dlproflint.extract.common.ReadDeadline.start(file, opts))) {
            ProfileFacts facts = readExport(file, export, () -> SQLITE.read(export.sqlite(), opts));
            return facts.withProfile(facts.profile().withPath(file.toString()));
        }
    }

    @Override
    public void streamInstances(Path file, ReadOptions options, InstanceSink sink) throws ProfileException {
        ReadOptions opts = options == null ? ReadOptions.DEFAULT : options;
        try (NsysExport export = NsysExport.of(file, opts.nsys(), dlproflint.extract.common.ReadDeadline.start(file, opts))) {
            readExport(file, export, () -> {
                SQLITE.streamInstances(export.sqlite(), opts, sink);
                return null;
            });
        }
    }

    @Override
    public dlproflint.detail.ProfileDetail detail(Path file, ReadOptions options, ProfileFacts facts) throws ProfileException {
        ReadOptions opts = options == null ? ReadOptions.DEFAULT : options;
        try (NsysExport export = NsysExport.of(file, opts.nsys())) {
            return readExport(file, export, () -> SQLITE.detail(export.sqlite(), opts, facts));
        }
    }

    private interface Read<T> {
        T run() throws ProfileException;
    }

    /** A problem in the export is the report's problem: the message names the report, not the temporary file. */
    private static <T> T readExport(Path report, NsysExport export, Read<T> read) throws ProfileException {
        try {
            return read.run();
        } catch (ProfileException e) {
            throw new ProfileException(report, "its SQLite export (" + export.sqlite().getFileName() + "): "
                    + e.getMessage(), e);
        }
    }
}
