package dlproflint.reporters.sarif;

import java.nio.file.Path;

/**
 * Where SARIF results may point.
 *
 * @param repoRoot   the repository root (git worktree) every artifact URI is made relative to; required
 * @param anchorFile file that carries findings with no source line in the repository (the training
 *                   script, the job config), relative to {@code repoRoot} or absolute; null when not configured
 */
public record SarifOptions(Path repoRoot, Path anchorFile) {
    public static SarifOptions of(Path repoRoot) {
        return new SarifOptions(repoRoot, null);
    }

    public SarifOptions withAnchor(Path anchor) {
        return new SarifOptions(repoRoot, anchor);
    }
}
