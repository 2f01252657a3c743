package dlproflint.cli;

import dlproflint.job.JobRoster;

import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where the ranks of a job are found and read: on this machine's threads ({@link LocalJobBackend}, the default of
 * {@code dlprof-lint job}) or on a cluster (the Spark application). Everything else of the job - configuration,
 * rules on the cross-rank facts, folding, suppressions, reports - runs on the driver, the same for every backend.
 */
public interface JobBackend {
    /** Short name for messages: {@code local}, {@code spark}. */
    String name();

    /**
     * The profiles of the job, expanded from the inputs as given (files, folders, globs), in a deterministic order.
     *
     * @throws CliException (exit 3) when an input names nothing at all
     */
    List<String> expand(CliEnv env, List<String> inputs) throws CliException;

    /**
     * Reads every profile into its rank summary or the reason it could not be read, in the order given.
     *
     * @param spec  how a remote machine reads and lints a rank (asked for only by remote backends)
     * @param local the driver's own reader (for backends that read here)
     * @param jobs  profiles read at once ({@code --jobs}), 0 for the backend's default
     */
    List<JobRoster.Read> readAll(List<String> profiles, Supplier<RankSpec> spec, RankReader local, int jobs)
            throws InterruptedException, IOException;

    /** Whether a report path is written by the backend (a cluster filesystem URI) rather than to a local file. */
    default boolean writesRemote(String path) {
        return false;
    }

    /** Writes a rendered report to a path {@link #writesRemote} accepted. */
    default void writeRemote(String path, byte[] content) throws IOException {
        throw new IOException(path + ": not a remote path");
    }

    /** How many ranks it read at once (for the timing line). */
    int parallelism();
}
