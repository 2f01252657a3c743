package dlproflint.extract.nsys;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Which {@code nsys} exports Nsight Systems reports, found the way a shell would, but in the environment the
 * command was given (tests and embedding callers pass their own) rather than this JVM's.
 *
 * @param command    {@code --nsys PATH}, else {@code DLPROF_LINT_NSYS}, else {@code nsys}; a name without a
 *                   separator is looked up on {@code searchPath}
 * @param searchPath the {@code PATH} to look it up on (may be null)
 * @param tempRoot   where the temporary export folder is made: {@code TMPDIR} when set, else {@code java.io.tmpdir}
 */
public record NsysTool(String command, String searchPath, Path tempRoot) {
    public static final String ENV = "DLPROF_LINT_NSYS";

    /** @param override the {@code --nsys} option, or null */
    public static NsysTool fromEnvironment(Map<String, String> env, String override) {
        String configured = override != null && !override.isBlank() ? override : env.get(ENV);
        String command = configured != null && !configured.isBlank() ? configured : "nsys";
        String tmp = env.get("TMPDIR");
        Path root;
        try {
            root = tmp != null && !tmp.isBlank() ? Path.of(tmp) : Path.of(System.getProperty("java.io.tmpdir"));
        } catch (InvalidPathException e) {
            root = Path.of(System.getProperty("java.io.tmpdir"));
        }
        return new NsysTool(command, env.get("PATH"), root);
    }

    /** Whether the user named an nsys (rather than relying on PATH), for the message when it is missing. */
    public boolean named() {
        return !"nsys".equals(command);
    }

    /** The executable, or empty when there is none at the named path or on the search path. */
    public Optional<Path> resolve() {
        if (command.contains("/") || command.contains(File.separator)) {
            try {
                return executable(Path.of(command));
            } catch (InvalidPathException e) {
                return Optional.empty();
            }
        }
        if (searchPath == null) return Optional.empty();
        boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
        for (String dir : searchPath.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            try {
                Optional<Path> found = executable(Path.of(dir, command));
                if (found.isEmpty() && windows) found = executable(Path.of(dir, command + ".exe"));
                if (found.isPresent()) return found;
            } catch (InvalidPathException e) {
                // a malformed PATH entry is skipped, as shells do
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> executable(Path p) {
        return Files.isRegularFile(p) && Files.isExecutable(p) ? Optional.of(p.toAbsolutePath()) : Optional.empty();
    }
}
