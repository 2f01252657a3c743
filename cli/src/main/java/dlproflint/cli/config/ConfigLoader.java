package dlproflint.cli.config;

import dlproflint.engine.RunConfig;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dlproflint.engine.Budget;
import dlproflint.extract.InputFiles;
import dlproflint.findings.Severity;
import dlproflint.findings.SeverityThresholds;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Finds and reads {@code .dlprof-lint.yml}, strictly: every mistake names the key and its line. */
public final class ConfigLoader {
    public static final List<String> FILE_NAMES = List.of(".dlprof-lint.yml", ".dlprof-lint.yaml", "dlprof-lint.yml");

    /**
     * The strict mapper, built on first use: most runs have no configuration file, and commands such as
     * {@code rules list} then load none of Jackson's data-binding classes (more than the rest of their start-up).
     */
    private static final class Mapper {
        static final ObjectMapper YAML = JsonMapper.builder(new YAMLFactory())
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
                .build();
    }

    private ConfigLoader() {
    }

    /**
     * The configuration file that applies to {@code workDir}: the first of {@link #FILE_NAMES} found walking
     * up from it, stopping at the repository root (the folder holding {@code .git}).
     */
    public static Optional<Path> discover(Path workDir) {
        for (Path dir = workDir.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            for (String name : FILE_NAMES) {
                Path f = dir.resolve(name);
                // whatever stands under the name is the configuration: a FIFO, a folder or a link to a device is an
                // error naming it (loadFound), not a file silently passed over for one further up
                if (Files.exists(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return Optional.of(f);
            }
            if (Files.exists(dir.resolve(".git"))) break;
        }
        return Optional.empty();
    }

    /** The largest configuration file read: a {@code .dlprof-lint.yml} is a page of settings. */
    public static final int MAX_BYTES = 1 << 20;

    public static LintConfig load(Path file) throws ConfigException {
        return load(file, "");
    }

    /** A configuration {@link #discover} found (not named by {@code --config}): a problem with it says so. */
    public static LintConfig loadFound(Path file) throws ConfigException {
        return load(file, " (found by looking for " + String.join(", ", FILE_NAMES) + " from the working directory up;"
                + " remove or rename it, or run with --no-config or --config FILE)");
    }

    private static LintConfig load(Path file, String found) throws ConfigException {
        String problem = InputFiles.problem(file, "configuration file");
        if (problem != null) {
            throw new ConfigException(file + ": " + (problem.equals("no such file") ? "configuration file not found" : problem) + found);
        }
        ConfigDocument doc;
        try {
            byte[] bytes;
            try (java.io.InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(MAX_BYTES + 1);
            }
            if (bytes.length > MAX_BYTES) {
                throw new ConfigException(file + ": configuration file larger than " + (MAX_BYTES >> 20)
                        + " MiB; a configuration is a page of settings" + found);
            }
            // A file with only comments is an empty configuration, not an error.
            com.fasterxml.jackson.databind.JsonNode tree = Mapper.YAML.readTree(bytes);
            if (tree != null && tree.isValueNode()) refuseLongKey(file, bytes);
            doc = tree == null || tree.isMissingNode() || tree.isNull()
                    ? ConfigDocument.empty() : Mapper.YAML.readValue(bytes, ConfigDocument.class);
        } catch (JsonProcessingException e) {
            throw translate(file, e, text(file));
        } catch (IllegalStateException | StackOverflowError e) {
            // SnakeYAML's own limits (nesting depth, aliases, code points) end in these
            throw new ConfigException(file, 0, "not a configuration YAML can read: " + firstLine(String.valueOf(e.getMessage())));
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read configuration: " + e.getMessage());
        }
        return resolve(file, doc);
    }

    private static LintConfig resolve(Path file, ConfigDocument doc) throws ConfigException {
        Map<String, String> pins = new HashMap<>();
        List<String> disabledPacks = new ArrayList<>();
        doc.packs().forEach((id, s) -> {
            if (!s.enabled()) disabledPacks.add(id);
            else if (s.version() != null) pins.put(id, s.version());
        });
        Path base = file.toAbsolutePath().getParent();
        List<Path> dirs = new ArrayList<>();
        for (String d : doc.ruleDirs()) {
            Path p = base.resolve(d).normalize();
            if (!Files.isDirectory(p)) {
                throw new ConfigException(file, 0, "ruleDirs: '" + d + "' is not a directory (resolved to " + p + ")");
            }
            dirs.add(p);
        }
        Map<String, Map<String, Object>> params = new java.util.LinkedHashMap<>();
        for (var e : doc.rules().params().entrySet()) {
            Map<String, Object> values = new java.util.LinkedHashMap<>();
            for (var p : (e.getValue() == null ? Map.<String, Object>of() : e.getValue()).entrySet()) {
                Object v = p.getValue();
                if (v instanceof Number n) {
                    values.put(p.getKey(), n.doubleValue());
                } else if (v instanceof List<?> l && l.stream().allMatch(x -> x instanceof String)) {
                    values.put(p.getKey(), List.copyOf(l));
                } else {
                    throw new ConfigException(file, lineMentioning(file, p.getKey()), "'rules.params." + e.getKey() + "." + p.getKey()
                            + "': wrong type: expected a number (or, for a list parameter, a list of names)");
                }
            }
            params.put(e.getKey(), values);
        }
        List<String> lines = text(file);
        SeverityThresholds global = thresholds(file, lines, doc.rules().severityThresholds());
        Map<String, Severity> sev = new HashMap<>();
        Map<String, SeverityThresholds> ruleThresholds = new HashMap<>();
        for (var e : doc.rules().severity().entrySet()) {
            SeveritySetting v = e.getValue();
            if (v == null) {
                throw new ConfigException(file, keyUnder(lines, "severity", e.getKey()),
                        "'rules.severity." + e.getKey() + "': expected " + SeveritySetting.EXPECTED);
            }
            if (v.pinned() != null) {
                sev.put(e.getKey(), v.pinned());
                continue;
            }
            try {
                ruleThresholds.put(e.getKey(), new SeverityThresholds(
                        v.errorPct() == null ? Math.max(global.errorPct(), v.warningPct() == null ? 0 : v.warningPct()) : v.errorPct(),
                        v.warningPct() == null ? Math.min(global.warningPct(), v.errorPct()) : v.warningPct()));
            } catch (IllegalArgumentException x) {
                throw new ConfigException(file, keyUnder(lines, "severity", e.getKey()), "'rules.severity." + e.getKey() + "': " + x.getMessage());
            }
        }
        RunConfig rules = new RunConfig(new java.util.LinkedHashSet<>(doc.rules().enable()),
                new java.util.LinkedHashSet<>(doc.rules().disable()), sev, params, pins,
                new java.util.LinkedHashSet<>(disabledPacks), global, ruleThresholds, budgets(file, lines, doc.budgets()));
        return new LintConfig(file.toAbsolutePath(), rules, dirs, doc.suppressions(), doc.sarif().anchor());
    }

    /** {@code rules.severityThresholds}, a missing value taking its default. */
    private static SeverityThresholds thresholds(Path file, List<String> lines, ConfigDocument.Thresholds t) throws ConfigException {
        if (t == null) return SeverityThresholds.DEFAULT;
        try {
            return new SeverityThresholds(t.error() == null ? SeverityThresholds.DEFAULT.errorPct() : t.error(),
                    t.warning() == null ? Math.min(SeverityThresholds.DEFAULT.warningPct(), t.error()) : t.warning());
        } catch (IllegalArgumentException x) {
            throw new ConfigException(file, keyUnder(lines, "rules", "severityThresholds"), "'rules.severityThresholds': " + x.getMessage());
        }
    }

    /** {@code budgets:}: known metrics, numbers in range, min not above max; durations in ms. */
    private static List<Budget> budgets(Path file, List<String> lines, Map<String, ConfigDocument.Bounds> doc) throws ConfigException {
        List<Budget> out = new ArrayList<>();
        for (var e : doc.entrySet()) {
            int line = keyUnder(lines, "budgets", e.getKey());
            ConfigDocument.Bounds b = e.getValue();
            if (b == null || b.min() == null && b.max() == null) {
                throw new ConfigException(file, line, "'budgets." + e.getKey() + "': needs min and/or max");
            }
            try {
                out.add(Budget.fromConfig(e.getKey(), b.min(), b.max(), file.getFileName() + ":" + line));
            } catch (IllegalArgumentException x) {
                throw new ConfigException(file, line, "'budgets." + e.getKey() + "': " + x.getMessage());
            }
        }
        return out;
    }

    /** The line of {@code key:} after the first {@code parent:} line (the first spelling of it there), or 0. */
    static int keyUnder(List<String> lines, String parent, String key) {
        java.util.regex.Pattern p = keyPattern(parent);
        java.util.regex.Pattern k = keyPattern(key);
        for (int i = 0; i < lines.size(); i++) {
            if (!p.matcher(lines.get(i)).matches()) continue;
            for (int j = i; j < lines.size(); j++) {
                String l = j == i ? lines.get(j).replaceFirst("^[^:]*:", "") : lines.get(j); // a flow mapping on the parent's line
                if (k.matcher(l).matches() || j == i && l.matches(".*[{,]\\s*(['\"]?)" + java.util.regex.Pattern.quote(key) + "\\1\\s*:.*")) {
                    return j + 1;
                }
            }
        }
        return 0;
    }

    private static java.util.regex.Pattern keyPattern(String key) {
        return java.util.regex.Pattern.compile("^[\\s-]*(['\"]?)" + java.util.regex.Pattern.quote(key) + "\\1\\s*:.*");
    }

    /** Jackson's exception → {@code file:line: what is wrong with which key}. */
    static ConfigException translate(Path file, JsonProcessingException e, List<String> lines) {
        int line = line(e);
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof com.fasterxml.jackson.core.JsonParseException p) {
                return new ConfigException(file, line(p), "not valid YAML: " + firstLine(p.getOriginalMessage()));
            }
        }
        if (e instanceof UnrecognizedPropertyException u) {
            String where = parentPath(u);
            line = keyLine(lines, u.getPropertyName(), line);
            return new ConfigException(file, line, "unknown key '" + u.getPropertyName() + "'"
                    + (where.isEmpty() ? "" : " in '" + where + "'") + suggestion(u.getPropertyName(), u.getKnownPropertyIds()));
        }
        if (e instanceof ValueInstantiationException v) {
            Throwable cause = v.getCause() != null ? v.getCause() : v;
            return new ConfigException(file, line, keyPrefix(v) + cause.getMessage());
        }
        if (e instanceof InvalidFormatException f) {
            return new ConfigException(file, line, keyPrefix(f) + "'" + f.getValue() + "' is not " + expected(f.getTargetType()));
        }
        if (e instanceof MismatchedInputException m) {
            String msg = m.getOriginalMessage();
            if (msg != null && msg.startsWith("Missing required creator property")) {
                String prop = msg.replaceAll(".*property '([^']*)'.*", "$1");
                String where = parentPath(m);
                return new ConfigException(file, line, (where.isEmpty() ? "" : "'" + where + "': ") + "missing key '" + prop + "'");
            }
            if (msg != null && msg.startsWith("Duplicate field")) {
                String key = msg.replaceAll("(?s)Duplicate field '([^']*)'.*", "$1");
                int second = secondLine(lines, key);
                return new ConfigException(file, second > 0 ? second : line, "key '" + shortKey(key) + "' appears twice"
                        + (second > 0 ? " (first on line " + keyLine(lines, key, 1) + ")" : "") + "; each key may appear once");
            }
            if (m.getPath().isEmpty()) {
                return new ConfigException(file, line, "the configuration must be a mapping of keys (packs, rules, ruleDirs, suppressions, sarif, budgets)");
            }
            return new ConfigException(file, line, keyPrefix(m) + "wrong type: expected " + expected(m.getTargetType()));
        }
        if (e instanceof JsonMappingException m) {
            return new ConfigException(file, line, keyPrefix(m) + firstLine(m.getOriginalMessage()));
        }
        return new ConfigException(file, line, "not valid YAML: " + firstLine(e.getOriginalMessage()));
    }

    /**
     * YAML takes a plain key of at most 1024 characters: a longer one makes the whole line a text value, and the
     * document a string instead of a mapping. Say that, rather than "must be a mapping".
     */
    private static void refuseLongKey(Path file, byte[] bytes) throws ConfigException {
        String[] lines = new String(bytes, java.nio.charset.StandardCharsets.UTF_8).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 1024) {
                throw new ConfigException(file, i + 1, "a key of " + colon + " characters: YAML takes a key of at most 1024"
                        + " characters, and reads this line as text, not as a key");
            }
        }
    }

    /** The line where {@code key} is written for the second time, or 0. */
    private static int secondLine(List<String> lines, String key) {
        java.util.regex.Pattern p = keyPattern(key);
        boolean first = false;
        for (int i = 0; i < lines.size(); i++) {
            if (p.matcher(lines.get(i)).matches()) {
                if (first) return i + 1;
                first = true;
            }
        }
        return 0;
    }

    /** A key as a message shows it: at most 60 characters. */
    private static String shortKey(String key) {
        return key.length() <= 60 ? key : key.substring(0, 60) + "... (" + key.length() + " characters)";
    }

    /**
     * The line of the token that is wrong. The exception's own location is where the parser stopped,
     * which in YAML is often the line after the key, so prefer the start of the current token.
     */
    private static int line(JsonProcessingException e) {
        JsonLocation loc = null;
        if (e.getProcessor() instanceof com.fasterxml.jackson.core.JsonParser p) loc = p.currentTokenLocation();
        if (loc == null || loc.getLineNr() <= 0) loc = e.getLocation();
        return loc == null ? 0 : Math.max(0, loc.getLineNr());
    }

    /**
     * Jackson has usually read past an unknown key's value when it reports it, so its location can be
     * a later line; the key's own line is the last line at or before that which spells the key.
     */
    static int keyLine(List<String> lines, String key, int reported) {
        java.util.regex.Pattern p = java.util.regex.Pattern.compile(
                "^[\\s-]*(['\"]?)" + java.util.regex.Pattern.quote(key) + "\\1\\s*:.*");
        int best = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (p.matcher(lines.get(i)).matches()) {
                if (best == 0 || i + 1 <= reported) best = i + 1;
                if (i + 1 >= reported) break;
            }
        }
        return best > 0 ? best : reported;
    }

    /** The first line of {@code file} that mentions {@code needle} (for errors found after binding), or 0. */
    public static int lineMentioning(Path file, String needle) {
        List<String> lines = text(file);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(needle)) return i + 1;
        }
        return 0;
    }

    private static List<String> text(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }

    private static String keyPrefix(JsonMappingException e) {
        String p = path(e.getPath());
        return p.isEmpty() ? "" : "'" + p + "': ";
    }

    private static String parentPath(JsonMappingException e) {
        List<JsonMappingException.Reference> refs = e.getPath();
        return path(refs.subList(0, Math.max(0, refs.size() - 1)));
    }

    private static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : refs) {
            if (r.getFieldName() != null) {
                if (sb.length() > 0) sb.append('.');
                sb.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    private static String expected(Class<?> type) {
        if (type == null) return "a different value";
        if (List.class.isAssignableFrom(type) || Collection.class.isAssignableFrom(type)) return "a list";
        if (Map.class.isAssignableFrom(type) || type.isRecord()) return "a mapping";
        if (Number.class.isAssignableFrom(type) || type == double.class || type == int.class) return "a number";
        if (type == Boolean.class || type == boolean.class) return "true or false";
        if (type == String.class) return "a string";
        if (type == Severity.class) return "a severity (error, warning or note)";
        return "a " + type.getSimpleName();
    }

    private static String suggestion(String key, Collection<Object> known) {
        if (known == null || known.isEmpty()) return "";
        String best = null;
        int bestDist = Integer.MAX_VALUE;
        for (Object k : known) {
            int d = distance(key, k.toString());
            if (d < bestDist) {
                bestDist = d;
                best = k.toString();
            }
        }
        return best != null && bestDist <= 3 ? " (did you mean '" + best + "'?)" : "";
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).trim();
    }
}
