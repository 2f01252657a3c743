package dlproflint.extract;

import java.time.Duration;

/**
 * User choices that shape extraction.
 *
 * @param keyNode       op name whose stop times split iterations; null = the framework's default
 * @param iterStart     first aggregated iteration (inclusive); null = first
 * @param iterStop      last aggregated iteration (inclusive); null = last
 * @param readTimeLimit how long one read of the file may take (SQLite queries are stopped after it); null = the
 *                      default for the file's size ({@link dlproflint.extract.common.ReadDeadline}), zero = none
 */
public record ReadOptions(String keyNode, Integer iterStart, Integer iterStop, Duration readTimeLimit) {
    public static final ReadOptions DEFAULT = new ReadOptions(null, null, null);

    public ReadOptions(String keyNode, Integer iterStart, Integer iterStop) {
        this(keyNode, iterStart, iterStop, null);
    }
}
