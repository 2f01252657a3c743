package dlproflint.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository a run belongs to: the nearest folder holding {@code .git}, else the working directory. */
final class RepoRoot {
    private RepoRoot() {
    }

    /** Whether {@code root} (as {@link #find} gave it) is a git checkout, not merely the working directory. */
    static boolean isRepository(Path root) {
        return Files.exists(root.resolve(".git"));
    }

    static Path find(Path cwd) {
        Path start = cwd.toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(".git"))) return dir;
        }
        return start;
    }
}
