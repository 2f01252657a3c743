package dlproflint.extract;

import dlproflint.extract.nsys.NsysTool;

import java.time.Duration;

/**
 * User choices that shape extraction.
 *
 * @param keyNode   op or range name whose stop times split iterations (DLProf's rule; a family name such as
 *                  {@code ProfilerStep} matches its numbered members); null = found from the profile
 *                  ({@link dlproflint.extract.common.IterationDiscovery})
 * @param iterStart first aggregated iteration (inclusive); null = first
 * @param iterStop  last aggregated iteration (inclusive); null = last
 * @param nsys      the {@code nsys} that exports Nsight Systems reports (.nsys-rep) to SQLite, and where
 * @param readTimeLimit how long one read of the file may take (SQLite queries are stopped after it); null = the
 *                      default for the file's size ({@link dlproflint.extract.common.ReadDeadline}), zero = none
 */
public record ReadOptions(String keyNode, Integer iterStart, Integer iterStop, NsysTool nsys, Duration readTimeLimit) {
    public static final ReadOptions DEFAULT = new ReadOptions(null, null, null);

    public ReadOptions {
        if (nsys == null) nsys = NsysTool.fromEnvironment(System.getenv(), null);
    }

    /** With the {@code nsys} this process's environment names ({@code DLPROF_LINT_NSYS}, else {@code PATH}). */
    public ReadOptions(String keyNode, Integer iterStart, Integer iterStop) {
        this(keyNode, iterStart, iterStop, null, null);
    }

    /** With the default read time limit. */
    public ReadOptions(String keyNode, Integer iterStart, Integer iterStop, NsysTool nsys) {
        this(keyNode, iterStart, iterStop, nsys, null);
    }

    /** The same options with another read time limit (null = the default, zero = none). */
    public ReadOptions withReadTimeLimit(Duration limit) {
        return new ReadOptions(keyNode, iterStart, iterStop, nsys, limit);
    }
}
