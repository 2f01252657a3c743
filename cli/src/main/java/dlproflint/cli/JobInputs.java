package dlproflint.cli;

import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The profiles a job's inputs name, on this machine: a file as given (even a missing one: it is reported as
 * unreadable with the others), every profile under a folder (recursively; files a reader recognises by content,
 * and files named like profiles even when they turn out unreadable), every file a glob matches ({@code *}, {@code ?},
 * {@code [...]}, {@code {a,b}}, {@code **} across folders; quote it so the shell leaves it alone, which also
 * avoids the shell's argument limit with thousands of ranks). Expanded names are in natural order
 * ({@code rank-2} before {@code rank-10}); a file named twice is read once.
 */
public final class JobInputs {
    private static final Pattern GLOB = Pattern.compile("[*?\\[{]");
    public static final Pattern PROFILE_NAME = Pattern.compile("(?i).*\\.(json|json\\.gz|sqlite|nsys-rep|qdrep)$");

    private JobInputs() {
    }

    public static List<String> expand(CliEnv env, List<String> inputs) throws CliException {
        ProfileReaders readers = ProfileReaders.discover();
        Set<Path> seen = new LinkedHashSet<>();
        List<String> out = new ArrayList<>();
        for (String in : inputs) {
            Path p = env.resolve(in);
            List<String> found;
            if (Files.isDirectory(p)) {
                found = under(in.endsWith("/") ? in : in + "/", p, readers, null);
                if (found.isEmpty()) throw new CliException(ExitCodes.PROFILE, in + ": no profiles in this folder");
            } else if (!Files.exists(p) && GLOB.matcher(in).find()) {
                found = glob(env, in);
                if (found.isEmpty()) throw new CliException(ExitCodes.PROFILE, in + ": no file matches");
            } else {
                found = List.of(in);
            }
            for (String f : found) {
                if (seen.add(env.resolve(f))) out.add(f);
            }
        }
        return out;
    }

    /** Profiles under a folder (or the files a matcher accepts), as {@code prefix + relative/path}. */
    private static List<String> under(String prefix, Path dir, ProfileReaders readers, PathMatcher matcher) {
        try (Stream<Path> walk = Files.walk(dir)) {
            // a named pipe or device named like a profile is kept: it is then left out as unreadable with its reason,
            // named in the report, rather than skipped without a word
            return walk.filter(f -> Files.isRegularFile(f)
                            || !Files.isDirectory(f) && PROFILE_NAME.matcher(f.getFileName().toString()).matches())
                    .filter(f -> !hidden(dir.relativize(f)))
                    .filter(f -> matcher == null ? isProfile(f, readers) : matcher.matches(dir.relativize(f)))
                    .map(f -> prefix + dir.relativize(f).toString().replace('\\', '/'))
                    .sorted(NATURAL)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> glob(CliEnv env, String pattern) {
        String[] parts = pattern.split("/", -1);
        int fixed = 0;
        while (fixed < parts.length - 1 && !GLOB.matcher(parts[fixed]).find()) fixed++;
        String base = String.join("/", java.util.Arrays.copyOf(parts, fixed));
        String rest = String.join("/", java.util.Arrays.copyOfRange(parts, fixed, parts.length));
        String prefix = fixed == 0 ? "" : base + "/";
        Path dir = fixed == 0 ? env.cwd() : base.isEmpty() ? Path.of("/") : env.resolve(base);
        if (!Files.isDirectory(dir)) return List.of();
        return under(prefix, dir, null, FileSystems.getDefault().getPathMatcher("glob:" + rest));
    }

    private static boolean hidden(Path relative) {
        for (Path part : relative) {
            if (part.toString().startsWith(".")) return true;
        }
        return false;
    }

    /** A file named like a profile, or one a reader recognises by its content. */
    private static boolean isProfile(Path f, ProfileReaders readers) {
        if (PROFILE_NAME.matcher(f.getFileName().toString()).matches()) return true;
        if (!Files.isRegularFile(f)) return false;
        try {
            readers.readerFor(f);
            return true;
        } catch (ProfileException e) {
            return false;
        }
    }

    private static final Pattern CHUNK = Pattern.compile("\\d+|\\D+");

    /** Text with its numbers compared as numbers: {@code rank-2} before {@code rank-10}. */
    public static final Comparator<String> NATURAL = (a, b) -> {
        Matcher x = CHUNK.matcher(a);
        Matcher y = CHUNK.matcher(b);
        while (x.find() && y.find()) {
            String p = x.group();
            String q = y.group();
            int c;
            if (Character.isDigit(p.charAt(0)) && Character.isDigit(q.charAt(0))) {
                c = new java.math.BigInteger(p).compareTo(new java.math.BigInteger(q));
            } else {
                c = p.compareTo(q);
            }
            if (c != 0) return c;
        }
        return a.compareTo(b);
    };
}
