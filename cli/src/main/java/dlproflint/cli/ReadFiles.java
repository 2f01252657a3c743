package dlproflint.cli;

import dlproflint.cli.config.LintConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Every file a run reads, with what it is to the run: the profiles, the configuration file (its suppressions
 * included), the baseline, the files of each site rule pack. None of them may be written by the same run: a report
 * path that names one, directly, through another spelling or through a symbolic link, is refused before anything is
 * read or written ({@link OutputChecks}).
 */
final class ReadFiles {
    /** Pack folders hold a few files; a walk that finds more than this many stops (the rest are not compared). */
    private static final int MAX_PACK_FILES = 10_000;

    /** One file the run reads and how the refusal names it ("the input profile", "the configuration file"). */
    record Entry(Path path, String role) {
    }

    private final List<Entry> entries;

    private ReadFiles(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    static ReadFiles profiles(List<Path> profiles) {
        List<Entry> out = new ArrayList<>();
        for (Path p : profiles) out.add(new Entry(p, "the input profile"));
        return new ReadFiles(out);
    }

    /** The profiles, the configuration file and every file under the site rule folders. */
    static ReadFiles of(List<Path> profiles, LintConfig config, List<Path> ruleDirs) {
        List<Entry> out = new ArrayList<>(profiles(profiles).entries);
        if (config != null && config.source() != null) out.add(new Entry(config.source(), "the configuration file"));
        for (Path dir : ruleDirs) {
            try (Stream<Path> walk = Files.walk(dir, 8)) {
                walk.limit(MAX_PACK_FILES).filter(f -> !Files.isDirectory(f))
                        .forEach(f -> out.add(new Entry(f, "a file of the rule folder " + dir)));
            } catch (IOException | UncheckedIOException e) {
                // an unreadable rule folder fails where the packs load, with its own message
            }
        }
        return new ReadFiles(out);
    }

    /** The same and the baseline file (null: none). */
    ReadFiles withBaseline(Path baseline) {
        if (baseline == null) return this;
        List<Entry> out = new ArrayList<>(entries);
        out.add(new Entry(baseline, "the baseline file"));
        return new ReadFiles(out);
    }

    List<Entry> entries() {
        return entries;
    }

    /** The profiles alone, as paths. */
    List<Path> profilePaths() {
        return entries.stream().filter(e -> e.role().equals("the input profile")).map(Entry::path).toList();
    }
}
