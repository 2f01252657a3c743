package dlproflint.cli.source;

import dlproflint.facts.StackFrame;
import dlproflint.findings.Finding;
import dlproflint.findings.MessageSpec;
import dlproflint.findings.RuleMetadata;
import dlproflint.reporters.sarif.SourceLocator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The line of the call, where a trace names only the function. PyTorch's Python tracer ({@code with_stack=True})
 * records each Python frame as {@code file.py(104): step}: the line where the function starts, not the line inside it
 * that made the call. A finding located there (its rule says so by a {@code where} in its message data) is moved to the
 * call itself when the user's source is at hand — the file the frame names in the run's repository, found as every
 * report places a frame ({@link SourceLocator#repositoryFile}) — and the
 * function's body, read from its {@code def} on, holds a call of the kind the rule is about: for host syncs the first
 * {@code .item()}, {@code .cpu()}, {@code .tolist()}, {@code .numpy()}, {@code synchronize(} or {@code nonzero(}.
 * Where the file is absent, differs (no such {@code def} on that line) or holds no such call, the finding stays at the
 * function and says why; nothing is guessed.
 */
public final class CallLines {
    /** The calls that sync the host with the GPU, in the Python spellings that make them. */
    static final Pattern SYNC_CALL = Pattern.compile(
            "\\.(item|cpu|tolist|numpy|nonzero)\\s*\\(|\\bsynchronize\\s*\\(|\\bnonzero\\s*\\(");
    /** The rules whose function-start location is refined, and the calls they are about. */
    static final Map<String, Pattern> CALLS = Map.of("pytorch/host-sync-in-step", SYNC_CALL);
    /** Source files larger than this are not read (no Python module of a training loop is). */
    static final long MAX_SOURCE_BYTES = 4L << 20;

    private CallLines() {
    }

    /**
     * The findings with each refinable location moved to its call; the others unchanged, in the same order.
     *
     * @param root  the run's repository root (the frame's file is looked up under it), or null for none
     * @param rules the rule metadata by id, for the message to be rendered again with the new place
     * @param sources the source files read so far: each is read once for all the calls given it
     */
    public static List<Finding> refine(List<Finding> findings, Path root, Function<String, Optional<RuleMetadata>> rules,
                                       Sources sources) {
        if (root == null || findings.isEmpty()) return findings;
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) out.add(refine(f, root, rules, sources));
        return out;
    }

    /**
     * The source files read so far, by path: a job's ranks, or the profiles of one run, usually name the same frame, and
     * the file is read once for all of them (the lines, or none when it is unreadable or too large). Safe for the
     * threads that lint profiles side by side.
     */
    public static final class Sources {
        private final Map<Path, Optional<List<String>>> files = new java.util.concurrent.ConcurrentHashMap<>();

        Optional<List<String>> lines(Path file) {
            return files.computeIfAbsent(file.toAbsolutePath().normalize(), Sources::read);
        }

        private static Optional<List<String>> read(Path file) {
            try {
                if (Files.size(file) > MAX_SOURCE_BYTES) return Optional.empty();
                return Optional.of(List.copyOf(Files.readAllLines(file, StandardCharsets.UTF_8)));
            } catch (IOException | RuntimeException e) {
                return Optional.empty(); // unreadable or not UTF-8: the finding stays at the function
            }
        }
    }

    static Finding refine(Finding f, Path root, Function<String, Optional<RuleMetadata>> rules, Sources sources) {
        Pattern calls = CALLS.get(f.ruleId());
        StackFrame at = f.location();
        if (calls == null || at == null || at.line() <= 0 || at.function() == null || f.data() == null
                || !f.data().containsKey("where") || f.messageId() == null) {
            return f;
        }
        Path file = SourceLocator.repositoryFile(root, at); // where every report places the frame
        if (file == null) return f;
        int line = callLine(sources.lines(file), at.line(), at.function(), calls);
        if (line <= 0) return f;
        Optional<MessageSpec> spec = rules.apply(f.ruleId()).flatMap(m -> m.message(f.messageId()));
        if (spec.isEmpty()) return f;
        StackFrame call = new StackFrame(at.file(), line, at.function());
        Map<String, Object> data = new LinkedHashMap<>(f.data());
        data.put("where", " in " + at.function() + "() at " + call + " (the first such call in the function the trace names,"
                + " found in its source; the trace's Python frames give only the line where " + at.function() + " starts, " + at.line() + ")");
        return new Finding(f.ruleId(), f.packId(), f.packVersion(), f.severity(), f.category(), spec.get().render(data),
                f.recommendation(), f.evidence(), f.subject(), call, f.helpUri(), f.profilePath(), f.fingerprint(),
                f.impact(), f.messageId(), java.util.Collections.unmodifiableMap(data));
    }

    /**
     * The 1-based line of the first call matching {@code calls} in the body of {@code function}, whose {@code def} is on
     * line {@code defLine} of {@code file}; 0 when that line is not its {@code def} or the body holds no such call.
     */
    static int callLine(Path file, int defLine, String function, Pattern calls) {
        return callLine(new Sources().lines(file), defLine, function, calls);
    }

    private static int callLine(Optional<List<String>> source, int defLine, String function, Pattern calls) {
        if (source.isEmpty()) return 0;
        List<String> lines = source.get();
        if (defLine > lines.size()) return 0;
        String def = lines.get(defLine - 1);
        if (!Pattern.compile("^\\s*(async\\s+)?def\\s+" + Pattern.quote(function) + "\\s*\\(").matcher(def).find()) return 0;
        int indent = indent(def);
        // the signature may run over several lines: the body starts after the line that ends it with ':'
        int sig = defLine - 1;
        while (sig < lines.size() && sig < defLine + 50 && !code(lines.get(sig)).trim().endsWith(":")) sig++;
        if (sig >= lines.size() || sig >= defLine + 50) return 0;
        for (int i = sig + 1; i < lines.size(); i++) {
            String text = code(lines.get(i));
            if (text.isBlank()) continue;
            if (indent(lines.get(i)) <= indent) return 0; // the body ended
            if (calls.matcher(text).find()) return i + 1;
        }
        return 0;
    }

    /** The line without its comment (a {@code #} outside quotes is not tracked: a call after one is not counted). */
    private static String code(String line) {
        int hash = line.indexOf('#');
        return hash < 0 ? line : line.substring(0, hash);
    }

    private static int indent(String line) {
        int n = 0;
        while (n < line.length() && (line.charAt(n) == ' ' || line.charAt(n) == '\t')) n++;
        return n;
    }
}
