package dlproflint.reporters.sarif;

/**
 * A place in the repository a result points at.
 *
 * @param uri    repository-relative URI reference ({@code models/resnet.py}), percent-encoded, '/' separated
 * @param line   1-based line
 * @param source how it was chosen: {@code stack} (the op's Python frame), {@code anchor}, {@code profile}
 */
public record ArtifactRef(String uri, int line, String source) {
    public static final String STACK = "stack";
    public static final String ANCHOR = "anchor";
    public static final String PROFILE = "profile";
}
