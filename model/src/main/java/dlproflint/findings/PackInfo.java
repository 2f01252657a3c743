package dlproflint.findings;

/**
 * A loaded rule pack, from its manifest ({@code pack.yaml}).
 *
 * @param source {@code builtin} or the directory it was loaded from
 */
public record PackInfo(String id, String version, String description, String source) {
}
