package dlproflint.extract;

/**
 * User choices that shape extraction.
 *
 * @param keyNode   op or range name whose stop times split iterations (DLProf's rule; a family name such as
 *                  {@code ProfilerStep} matches its numbered members); null = found from the profile
 *                  ({@link dlproflint.extract.common.IterationDiscovery})
 * @param iterStart first aggregated iteration (inclusive); null = first
 * @param iterStop  last aggregated iteration (inclusive); null = last
 */
public record ReadOptions(String keyNode, Integer iterStart, Integer iterStop) {
    public static final ReadOptions DEFAULT = new ReadOptions(null, null, null);
}
