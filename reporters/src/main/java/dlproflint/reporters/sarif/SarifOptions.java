package dlproflint.reporters.sarif;

import java.nio.file.Path;

/**
 * Where SARIF results may point.
 *
 * @param repoRoot   the repository root (git worktree) every artifact URI is made relative to; required. Outside
 *                   a git checkout, the working directory
 * @param anchorFile file that carries findings with no source line in the repository (the training
 *                   script, the job config), relative to {@code repoRoot} or absolute; null when not configured
 * @param repository whether {@code repoRoot} is a git checkout. Code scanning needs every result inside it; outside
 *                   one (a laptop, a scratch folder) nothing is uploaded there, so a result may point at the profile
 *                   wherever it lies, relative to {@code repoRoot} ({@code ../runs/train.sqlite})
 */
public record SarifOptions(Path repoRoot, Path anchorFile, boolean repository) {
    /** In a repository: every result must point inside it. */
    public SarifOptions(Path repoRoot, Path anchorFile) {
        this(repoRoot, anchorFile, true);
    }

    public static SarifOptions of(Path repoRoot) {
        return new SarifOptions(repoRoot, null);
    }

    public SarifOptions withAnchor(Path anchor) {
        return new SarifOptions(repoRoot, anchor, repository);
    }
}
