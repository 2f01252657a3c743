package dlproflint.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks where reports will go before any (possibly long) extraction starts: at most one report on
 * stdout, every folder present and writable, and never a report over an input profile or another report.
 */
final class OutputChecks {
    private OutputChecks() {
    }

    static void checkReports(List<ReportTarget> targets, List<Path> inputs, CliEnv env) throws CliException {
        long toStdout = targets.stream().filter(ReportTarget::toStdout).count();
        if (toStdout > 1) {
            throw CliException.usage("only one report may go to stdout; give the others a path (--report FORMAT=PATH)");
        }
        List<Path> seen = new ArrayList<>();
        for (ReportTarget t : targets) {
            if (t.toStdout()) continue;
            Path p = env.resolve(t.path());
            checkWritableFile(p, "--report " + t.format(), inputs);
            for (Path other : seen) {
                if (same(p, other)) throw CliException.usage(t.path() + ": two reports would write the same file");
            }
            seen.add(p);
        }
    }

    /** A file we are about to create or replace: its folder must exist and be writable, and it must not be an input. */
    static void checkWritableFile(Path p, String what, List<Path> inputs) throws CliException {
        for (Path in : inputs) {
            if (same(p, in)) {
                throw CliException.usage(p + ": " + what + " would overwrite the input profile; choose another path");
            }
        }
        if (Files.isDirectory(p)) throw CliException.usage(p + ": " + what + " path is a folder, not a file");
        Path dir = p.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw CliException.usage(p + ": cannot write " + what + ": folder " + dir + " does not exist");
        }
        if (!Files.isWritable(dir)) {
            throw CliException.usage(p + ": cannot write " + what + ": folder " + dir + " is not writable");
        }
        if (Files.exists(p) && !Files.isWritable(p)) {
            throw CliException.usage(p + ": cannot write " + what + ": file is not writable");
        }
    }

    /** An output folder (DLProf-format reports): must exist (or be creatable) and be writable. */
    static void checkWritableFolder(Path dir, String what) throws CliException {
        if (Files.exists(dir) && !Files.isDirectory(dir)) throw CliException.usage(dir + ": " + what + " is not a folder");
        Path existing = dir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) existing = existing.getParent();
        if (existing == null || !Files.isWritable(existing)) {
            throw CliException.usage(dir + ": " + what + " is not writable");
        }
    }

    /** Same file, also through links or different spellings; a path that does not exist yet compares by its real folder. */
    static boolean same(Path a, Path b) {
        try {
            if (Files.exists(a) && Files.exists(b)) return Files.isSameFile(a, b);
        } catch (IOException e) {
            // fall through to the textual comparison
        }
        return canonical(a).equals(canonical(b));
    }

    private static Path canonical(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path parent = abs.getParent();
        try {
            if (parent != null && Files.exists(parent)) return parent.toRealPath().resolve(abs.getFileName());
        } catch (IOException e) {
            // keep the normalized path
        }
        return abs;
    }
}
