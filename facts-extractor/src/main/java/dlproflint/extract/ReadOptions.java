package dlproflint.extract;

/**
 * User choices that shape extraction.
 *
 * @param keyNode   op name whose stop times split iterations; null = the framework's default
 * @param iterStart first aggregated iteration (inclusive); null = first
 * @param iterStop  last aggregated iteration (inclusive); null = last
 */
public record ReadOptions(String keyNode, Integer iterStart, Integer iterStop) {
    public static final ReadOptions DEFAULT = new ReadOptions(null, null, null);
}
