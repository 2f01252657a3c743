package dlproflint.cli;

import dlproflint.findings.OneLine;
import dlproflint.extract.InputFiles;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.io.ScratchFiles;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place where the profile arguments of a command become files to read: a path, {@code -}
 * (the profile arrives on standard input) or a folder (every profile in it).
 *
 * <p>Two steps, so that mistakes stay cheap: {@link #of} runs before the rule packs load and reads no
 * content (existence, type, at most one {@code -}, the folder's file names); {@link #open} runs after,
 * and is where content is touched: standard input is spooled to a temporary file (under the system's
 * temporary folder, never next to an input, removed by {@link #close}), and a folder's files are
 * sniffed by content, keeping the profiles in name order and skipping every other file with a note.
 */
final class ProfileInputs implements AutoCloseable {
    /** How the stdin profile is named in reports and messages (its SARIF category is {@code dlprof-lint/stdin/}). */
    static final String STDIN_NAME = "stdin";

    /**
     * One profile to read.
     *
     * @param name   how messages name it (as given, {@code folder/file} for a folder's file)
     * @param path   the file that holds it
     * @param stdin  it came from standard input ({@code path} is the spooled copy, reports call it {@value #STDIN_NAME})
     */
    record Input(String name, Path path, boolean stdin) {
    }

    /**
     * One argument as given: a file, standard input, or a folder and its files (not yet sniffed), with the folder's
     * entries that are neither files nor folders and why each is not read.
     */
    private record Arg(String given, Path path, boolean stdin, List<Path> folderFiles, String problem, List<Skipped> unread) {
        Arg(String given, Path path, boolean stdin, List<Path> folderFiles, String problem) {
            this(given, path, stdin, folderFiles, problem, List.of());
        }

        boolean folder() {
            return folderFiles != null;
        }
    }

    /** A folder entry that is not read: a named pipe, a device, a link that leads nowhere or in a circle. */
    private record Skipped(Path path, String why) {
    }

    private final CliEnv env;
    private final List<Arg> args;
    private Path spool;

    private ProfileInputs(CliEnv env, List<Arg> args) {
        this.env = env;
        this.args = args;
    }

    /**
     * Resolves the arguments against the working directory and lists folders; reads no profile content and
     * reports nothing yet ({@link #check} does, so a command can check its report paths first).
     *
     * @param folders whether a folder argument is allowed (commands that take one profile refuse it)
     */
    static ProfileInputs of(CliEnv env, List<String> given, boolean folders) {
        List<Arg> args = new ArrayList<>();
        for (String g : given) {
            if ("-".equals(g)) {
                args.add(new Arg(g, null, true, null, null));
                continue;
            }
            Path p = env.resolve(g);
            if (folders && Files.isDirectory(p)) {
                List<Path> files = new ArrayList<>();
                List<Skipped> unread = new ArrayList<>();
                String problem = null;
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
                    for (Path f : ds) {
                        if (Files.isRegularFile(f)) {
                            files.add(f);
                        } else if (!Files.isDirectory(f)) {
                            // anything else is named, not silently passed over: a FIFO, a device, a broken or looping link
                            unread.add(new Skipped(f, InputFiles.problem(f, "profile")));
                        }
                    }
                    files.sort(null);
                    unread.sort(java.util.Comparator.comparing(Skipped::path));
                } catch (IOException e) {
                    problem = "cannot list the folder: " + e.getMessage();
                }
                args.add(new Arg(g, p, false, files, problem, unread));
            } else {
                args.add(new Arg(g, p, false, null, null));
            }
        }
        return new ProfileInputs(env, args);
    }

    /**
     * A mistyped path should not wait for the rule packs to compile: existence and type are checked before
     * they load (exit 3), and {@code -} may appear once (exit 2).
     */
    void check() throws CliException {
        boolean stdinSeen = false;
        for (Arg a : args) {
            if (a.stdin()) {
                if (stdinSeen) throw CliException.usage("'-' (standard input) can be given only once");
                stdinSeen = true;
                continue;
            }
            String problem = a.folder() ? a.problem() : problem(a.path());
            if (problem != null) throw new CliException(ExitCodes.PROFILE, a.given() + ": " + problem);
        }
    }

    /** Only regular files are read as profiles: a FIFO would block the open, a device never ends. */
    private static String problem(Path p) {
        return InputFiles.problem(p, "profile");
    }

    /** Every file an argument names, folder files included, for the checks that keep reports off the inputs. */
    List<Path> candidatePaths() {
        List<Path> out = new ArrayList<>();
        for (Arg a : args) {
            if (a.folder()) out.addAll(a.folderFiles());
            else if (!a.stdin()) out.add(a.path());
        }
        return out;
    }

    /**
     * The profiles to read, in the order given (a folder's profiles in name order). Spools standard input
     * and sniffs folder files; notes on stderr name every folder file that is skipped.
     */
    List<Input> open(ProfileReaders readers) throws CliException {
        List<Input> out = new ArrayList<>();
        for (Arg a : args) {
            if (a.stdin()) {
                out.add(new Input("-", spoolStdin(), true));
            } else if (a.folder()) {
                out.addAll(profilesIn(a, readers));
            } else {
                out.add(new Input(a.given(), a.path(), false));
            }
        }
        return out;
    }

    private List<Input> profilesIn(Arg folder, ProfileReaders readers) throws CliException {
        List<Input> found = new ArrayList<>();
        int skipped = 0;
        List<String> notes = new ArrayList<>();
        for (Skipped u : folder.unread()) {
            notes.add("dlprof-lint: note: " + OneLine.of(displayName(folder.given(), u.path()) + ": skipped, " + u.why()));
        }
        for (Path f : folder.folderFiles()) {
            String name = displayName(folder.given(), f);
            try {
                readers.readerFor(f).confirm(f);
                found.add(new Input(name, f, false));
            } catch (ProfileException e) {
                skipped++;
                notes.add("dlprof-lint: note: " + OneLine.of(name + ": skipped, " + e.getMessage()));
            }
        }
        if (found.isEmpty()) {
            int others = folder.unread().size();
            String why = skipped == 0 && others == 0 ? " (it is empty)"
                    : " (" + (skipped == 0 ? "" : skipped + (skipped == 1 ? " file" : " files") + " skipped: not a supported profile")
                    + (skipped > 0 && others > 0 ? "; " : "")
                    + (others == 0 ? "" : others + (others == 1 ? " entry" : " entries")
                    + " skipped: not a regular file, e.g. " + displayName(folder.given(), folder.unread().get(0).path()) + " "
                    + folder.unread().get(0).why()) + ")";
            // nothing to read: one line says why, not a note per file before it
            throw new CliException(ExitCodes.PROFILE, folder.given() + ": no profile in this folder" + why);
        }
        for (String n : notes) env.err().println(n);
        return found;
    }

    private static String displayName(String folderGiven, Path file) {
        String sep = folderGiven.endsWith("/") || folderGiven.endsWith(java.io.File.separator) ? "" : "/";
        return folderGiven + sep + file.getFileName();
    }

    /**
     * Readers need a file (SQLite opens one; traces are read twice for reports), so standard input is copied
     * to a private temporary file first ({@link StdinSpool}: bounded in size, free space and waiting). Its format is
     * then found from its content like any other profile.
     */
    private Path spoolStdin() throws CliException {
        spool = StdinSpool.spool(env);
        return spool;
    }

    /** Removes the spooled copy of standard input, if any. */
    @Override
    public void close() {
        if (spool == null) return;
        ScratchFiles.delete(spool);
        spool = null;
    }
}
