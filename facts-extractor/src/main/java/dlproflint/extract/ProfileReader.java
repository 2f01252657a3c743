package dlproflint.extract;

import dlproflint.facts.InstanceSink;

import dlproflint.facts.InstanceSource;
import dlproflint.facts.ProfileFacts;

import java.io.IOException;
import java.nio.file.Path;

/** Reads one profile format into facts. Implementations must never modify the input. */
public interface ProfileReader {
    /** Short format id, e.g. {@code nsys-sqlite}. */
    String format();

    /** Whether this reader understands the file, judged from its content (header, tables, shape). */
    boolean accepts(Path file, FileSniff sniff) throws ProfileException;

    ProfileFacts read(Path file, ReadOptions options) throws ProfileException;

    /**
     * What the HTML report's Timeline, Memory and Module views draw ({@link dlproflint.detail.ProfileDetail}), read
     * again from the file, only when an HTML report is written; {@code facts} are this file's, read before. Formats
     * without per-launch data give {@link dlproflint.detail.ProfileDetail#NONE}.
     */
    default dlproflint.detail.ProfileDetail detail(Path file, ReadOptions options, ProfileFacts facts) throws ProfileException {
        return dlproflint.detail.ProfileDetail.NONE;
    }

    /**
     * A closer look than {@link #accepts}, for files found in a folder rather than named by the user: throws, saying
     * why, when the file this reader accepted is not a profile after all (a {@code labels.json} beside the traces),
     * so the folder's other profiles are read and it is skipped with a note. Bounded: it reads the start of the file.
     */
    default void confirm(Path file) throws ProfileException {
    }

    /** The same, telling {@code progress} how far it has got; readers that cannot tell ignore it. */
    default ProfileFacts read(Path file, ReadOptions options, ReadProgress progress) throws ProfileException {
        return read(file, options);
    }

    /**
     * Streams every GPU work instance with its op and iteration (DLProf's iteration report) without
     * holding them in memory. Readers of formats without per-launch data may refuse.
     */
    default void streamInstances(Path file, ReadOptions options, InstanceSink sink) throws ProfileException {
        throw new ProfileException(file, "per-kernel instances are not available for format " + format());
    }

    /**
     * {@link #streamInstances} as an {@link InstanceSource} for reporters, which know no reader: a
     * {@link ProfileException} reaches them as an IOException with the ProfileException as its cause.
     */
    default InstanceSource instances(Path file, ReadOptions options) {
        return sink -> {
            try {
                streamInstances(file, options, sink);
            } catch (ProfileException e) {
                throw new IOException(e.getMessage(), e);
            }
        };
    }
}
