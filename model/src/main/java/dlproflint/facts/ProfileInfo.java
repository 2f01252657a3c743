package dlproflint.facts;

/**
 * Where the facts came from.
 *
 * @param path          the profile file as given on the command line
 * @param format        reader that produced the facts: {@code nsys-sqlite}, {@code dlprof-db}, {@code kineto}
 * @param profilerVersion producer version (e.g. {@code 2022.1.3.3-1c7b5f7}), or null when unknown
 * @param schemaVersion export schema version (e.g. {@code 2.9.1}), or null when unknown
 * @param startNs       first timestamp seen (profile clock, ns)
 * @param endNs         last timestamp seen (profile clock, ns)
 */
public record ProfileInfo(String path, String format, String profilerVersion, String schemaVersion,
                          long startNs, long endNs) {
    public ProfileInfo withPath(String other) {
        return new ProfileInfo(other, format, profilerVersion, schemaVersion, startNs, endNs);
    }

    public long wallNs() {
        return Math.max(0, endNs - startNs);
    }
}
