package dlproflint.cli;

import dlproflint.reporters.io.OutputTarget;

import java.io.IOException;
import java.nio.file.FileSystemException;
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

    static void checkReports(List<ReportTarget> targets, ReadFiles inputs, CliEnv env) throws CliException {
        long toStdout = 0;
        List<OutputTarget> seen = new ArrayList<>();
        List<String> seenAs = new ArrayList<>();
        for (ReportTarget t : targets) {
            if (t.toStdout()) {
                toStdout++;
                continue;
            }
            Path p = env.resolve(t.path());
            OutputTarget out = checkWritableFile(p, "--report " + t.format(), inputs);
            if (out.kind() == OutputTarget.Kind.STDOUT) toStdout++;
            for (int i = 0; i < seen.size(); i++) {
                // compared where the bytes go: a link and the file it points to are one file
                if (!out.direct() && !seen.get(i).direct() && same(out.path(), seen.get(i).path())) {
                    throw CliException.usage(t.path() + ": two reports would write the same file"
                            + (seenAs.get(i).equals(t.path()) ? "" : " (" + seenAs.get(i) + " leads there too)")
                            + "; give each report its own path");
                }
            }
            seen.add(out);
            seenAs.add(t.path());
        }
        if (toStdout > 1) {
            throw CliException.usage("only one report may go to stdout; give the others a path (--report FORMAT=PATH)");
        }
    }

    /**
     * A file we are about to create or replace: not a file the run reads, not a folder, a name the file system
     * accepts, and (for a regular file, after following links) a writable folder to rename into.
     * Devices, FIFOs and descriptor aliases ({@code /dev/null}, {@code /dev/stdout}) are written in
     * place: they only need to be writable themselves.
     */
    static OutputTarget checkWritableFile(Path p, String what, ReadFiles inputs) throws CliException {
        OutputTarget t = classify(p, what);
        refuseRead(p, t, what, inputs);
        if (t.kind() == OutputTarget.Kind.DEVICE || t.kind() == OutputTarget.Kind.DESCRIPTOR) {
            if (!Files.isWritable(t.path())) throw CliException.usage(p + ": cannot write " + what + ": not writable");
            return t;
        }
        if (t.direct()) return t;
        Path dir = t.path().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw CliException.usage(p + ": cannot write " + what + ": folder " + dir + " does not exist");
        }
        if (!Files.isWritable(dir)) {
            throw CliException.usage(p + ": cannot write " + what + ": folder " + dir + " is not writable");
        }
        if (Files.exists(t.path()) && !Files.isWritable(t.path())) {
            throw CliException.usage(p + ": cannot write " + what + ": file is not writable");
        }
        return t;
    }

    /**
     * Nothing the run reads is written: an output that is (through any spelling or link) the profile, the
     * configuration, the baseline or a rule pack's file is refused, naming which.
     *
     * @param t where {@code p} leads ({@link #classify})
     */
    static void refuseRead(Path p, OutputTarget t, String what, ReadFiles inputs) throws CliException {
        if (t.direct()) return; // a device or descriptor is written in place, never replaced
        for (ReadFiles.Entry in : inputs.entries()) {
            if (same(p, in.path()) || same(t.path(), in.path())) {
                String tail = in.role().equals("the input profile") ? "; choose another path"
                        : " (this run reads it); choose another path";
                throw CliException.usage(p + ": " + what + " would overwrite " + in.role() + tail);
            }
        }
    }

    /**
     * Where {@code p} leads ({@link OutputTarget}), or a usage error saying why nothing can be written
     * there: a folder, a loop of links, a name too long for the file system.
     */
    static OutputTarget classify(Path p, String what) throws CliException {
        try {
            return OutputTarget.of(p);
        } catch (FileSystemException e) {
            throw CliException.usage(p + ": cannot write " + what + ": " + (e.getReason() == null ? e.getMessage() : e.getReason()));
        } catch (IOException e) {
            throw CliException.usage(p + ": cannot write " + what + ": " + e.getMessage());
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
