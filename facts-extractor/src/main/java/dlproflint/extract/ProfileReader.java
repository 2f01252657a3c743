package dlproflint.extract;

import dlproflint.facts.ProfileFacts;

import java.nio.file.Path;

/** Reads one profile format into facts. Implementations must never modify the input. */
public interface ProfileReader {
    /** Short format id, e.g. {@code nsys-sqlite}. */
    String format();

    /** Whether this reader understands the file, judged from its content (header, tables, shape). */
    boolean accepts(Path file, FileSniff sniff) throws ProfileException;

    ProfileFacts read(Path file, ReadOptions options) throws ProfileException;

    /**
     * Streams every GPU work instance with its op and iteration (DLProf's iteration report) without
     * holding them in memory. Readers of formats without per-launch data may refuse.
     */
    default void streamInstances(Path file, ReadOptions options, InstanceSink sink) throws ProfileException {
        throw new ProfileException(file, "per-kernel instances are not available for format " + format());
    }
}
