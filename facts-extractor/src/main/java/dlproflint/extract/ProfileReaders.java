package dlproflint.extract;

import dlproflint.facts.ProfileFacts;

import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/** Chooses the reader for a file by content and runs it. Readers register through {@link ServiceLoader}. */
public final class ProfileReaders {
    private final List<ProfileReader> readers;

    public ProfileReaders(List<ProfileReader> readers) {
        this.readers = List.copyOf(readers);
    }

    /** All readers on the class path ({@code META-INF/services/dlproflint.extract.ProfileReader}). */
    public static ProfileReaders discover() {
        return new ProfileReaders(ServiceLoader.load(ProfileReader.class).stream()
                .map(ServiceLoader.Provider::get).collect(Collectors.toList()));
    }

    public List<String> formats() {
        return readers.stream().map(ProfileReader::format).toList();
    }

    public ProfileReader readerFor(Path file) throws ProfileException {
        String problem = InputFiles.problem(file, "profile");
        if (problem != null) throw new ProfileException(file, problem);
        FileSniff sniff = FileSniff.of(file);
        if (sniff.size() == 0) throw new ProfileException(file, "empty file; " + supported());
        for (ProfileReader r : readers) {
            if (r.accepts(file, sniff)) return r;
        }
        if (dlproflint.extract.nsys.NsysReportReader.namedLikeOne(file)) {
            throw new ProfileException(file, "named like an Nsight Systems report, but it is not one ("
                    + (sniff.looksLikeText() ? "a text file" : sniff.isGzip() ? "a gzip file" : "unrecognised content")
                    + "); " + supported());
        }
        throw new ProfileException(file, "unrecognised profile format; " + supported());
    }

    /** The profile's facts, at most {@link FactRows#MAX_ROWS} op and kernel rows of them. */
    public ProfileFacts read(Path file, ReadOptions options) throws ProfileException {
        return FactRows.bound(readerFor(file).read(file, options));
    }

    public ProfileFacts read(Path file, ReadOptions options, ReadProgress progress) throws ProfileException {
        return FactRows.bound(readerFor(file).read(file, options, progress == null ? ReadProgress.NONE : progress));
    }

    private String supported() {
        return "supported: Nsight Systems SQLite export (nsys export --type sqlite), Nsight Systems report "
                + "(.nsys-rep, exported with nsys), DLProf database (dlprof_dldb.sqlite), PyTorch profiler trace (.json, .json.gz)";
    }
}
