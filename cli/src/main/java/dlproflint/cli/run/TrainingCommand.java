package dlproflint.cli.run;

import dlproflint.cli.CliException;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The training command after {@code dlprof-lint run --}, taken apart: the interpreter that runs it, the
 * interpreter's own flags, and what it runs (a script and its arguments, or {@code -m MODULE} and its arguments).
 * {@code python3 -u train.py --lr 0.1} names its interpreter; {@code train.py --lr 0.1} is run by {@code --python},
 * else by the first {@code python3} on {@code PATH}.
 *
 * @param interpreter the interpreter, resolved to a file
 * @param flags       the interpreter's own flags ({@code -u}, {@code -X dev}, ...), kept in front of the bootstrap
 * @param target      the script and its arguments, or {@code -m}, the module and its arguments
 */
public record TrainingCommand(Path interpreter, List<String> flags, List<String> target) {
    /** A Python interpreter by its file name: python, python3, python3.11, pypy3, python3.11-dbg. */
    private static final Pattern INTERPRETER = Pattern.compile("(python|pypy)[0-9.]*(-dbg|d|m)?(\\.exe)?");
    /** Interpreter flags that take the next word as their value. */
    private static final Set<String> WITH_VALUE = Set.of("-X", "-W", "--check-hash-based-pycs");

    public static final String DEFAULT_PYTHON = "python3";

    public TrainingCommand {
        flags = List.copyOf(flags);
        target = List.copyOf(target);
    }

    /**
     * @param words  the words after {@code --}
     * @param python {@code --python}, or null
     * @param cwd    the working directory relative paths resolve against
     * @param env    the environment ({@code PATH})
     */
    public static TrainingCommand parse(List<String> words, String python, Path cwd, Map<String, String> env) throws CliException {
        if (words.isEmpty()) {
            throw usage("no training command: dlprof-lint run [options] -- python train.py [args]");
        }
        String first = words.get(0);
        int i;
        String interpreter;
        if (isInterpreter(first)) {
            if (python != null) {
                throw usage("the command names its interpreter (" + first + ") and so does --python; give it once");
            }
            interpreter = first;
            i = 1;
        } else {
            interpreter = python != null ? python : DEFAULT_PYTHON;
            i = 0;
        }
        List<String> flags = new ArrayList<>();
        while (i < words.size() && words.get(i).startsWith("-") && !words.get(i).equals("-m")) {
            String w = words.get(i);
            if (w.equals("-c")) throw usage("'python -c' is not supported: dlprof-lint run needs a script or -m MODULE");
            if (w.equals("-") || w.equals("--")) throw usage("a script read from standard input is not supported: name the script");
            flags.add(w);
            if (WITH_VALUE.contains(w) && i + 1 < words.size()) flags.add(words.get(++i));
            i++;
        }
        if (i >= words.size()) throw usage("no script in the training command '" + String.join(" ", words) + "'");
        List<String> target = new ArrayList<>(words.subList(i, words.size()));
        if (target.get(0).equals("-m")) {
            if (target.size() < 2) throw usage("-m needs a module name");
        } else {
            Path script = cwd.resolve(target.get(0));
            if (!Files.isRegularFile(script)) {
                throw new CliException(dlproflint.cli.ExitCodes.USAGE, target.get(0) + ": no such script");
            }
        }
        return new TrainingCommand(resolve(interpreter, cwd, env), flags, target);
    }

    /** What the command runs, for messages: {@code train.py} or {@code -m pkg.train}. */
    public String label() {
        return target.get(0).equals("-m") ? "-m " + target.get(1) : target.get(0);
    }

    /** A short name for default output files: the script's or module's name without its suffix. */
    public String stem() {
        String t = target.get(0).equals("-m") ? target.get(1) : Path.of(target.get(0)).getFileName().toString();
        if (t.endsWith(".py")) t = t.substring(0, t.length() - 3);
        int dot = t.lastIndexOf('.');
        return dot >= 0 && target.get(0).equals("-m") ? t.substring(dot + 1) : t;
    }

    /** The interpreter running the bootstrap, which runs the target: {@code python -u BOOTSTRAP CONFIG train.py args}. */
    public List<String> argv(Path bootstrap, Path config) {
        List<String> argv = new ArrayList<>();
        argv.add(interpreter.toString());
        argv.addAll(flags);
        argv.add(bootstrap.toString());
        argv.add(config.toString());
        argv.addAll(target);
        return argv;
    }

    static boolean isInterpreter(String word) {
        String name = word.substring(word.lastIndexOf('/') + 1);
        return INTERPRETER.matcher(name).matches();
    }

    /** A path with a '/' as given (relative to the working directory); a bare name from PATH. */
    static Path resolve(String interpreter, Path cwd, Map<String, String> env) throws CliException {
        if (interpreter.contains("/")) {
            Path p = cwd.resolve(interpreter).normalize();
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return p;
            throw usage(interpreter + ": no such Python interpreter (choose one with --python)");
        }
        String path = env.getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir).resolve(interpreter);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return p;
        }
        throw usage(interpreter + " not found on PATH (choose the interpreter with --python PATH, "
                + "or name it in the command: dlprof-lint run -- /usr/bin/python3 train.py)");
    }

    private static CliException usage(String message) {
        return CliException.usage(message);
    }
}
