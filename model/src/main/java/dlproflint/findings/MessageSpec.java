package dlproflint.findings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One message a rule declares ({@code @messages({"gpu-idle = GPU utilization {gpuUtilizationPct:pct}: ..."})}): an id
 * and a template whose placeholders are filled from the finding's data. A placeholder is {@code {name}} or
 * {@code {name:format}}, with the formats
 * <ul>
 * <li>{@code duration} ({@link Units#duration}, nanoseconds), {@code pct}, {@code share}, {@code num}, {@code bytes},
 *     {@code memory}, {@code count} (the {@link Units} of the same names), {@code 1f} (one decimal);</li>
 * <li>{@code #one|many}: the number and its noun ({@code {ops#op|ops}} gives {@code 1 op} or {@code 5 ops});</li>
 * <li>{@code ?one|many}: the word alone, by the number ({@code {ops?was|were}});</li>
 * </ul>
 * and without a format the value as Java's string concatenation writes it ({@code String.valueOf}). {@code {{}} and {@code {}}} write a brace. SARIF gets the same template with positional arguments
 * ({@link #positional()}, {@link #arguments}).
 *
 * @param id       {@code [a-z][a-z0-9-]*}, stable (cases and scripts match on it)
 * @param template the text with placeholders
 */
public record MessageSpec(String id, String template) implements java.io.Serializable {
    /** A placeholder: a name and, after ':' or '#' or '?', its format. */
    private static final Pattern TOKEN = Pattern.compile("\\{([A-Za-z][A-Za-z0-9_]*)(?:([:#?])([^{}]*))?\\}|\\{([{}])\\}");
    public static final Pattern ID = Pattern.compile("[a-z][a-z0-9]*(?:-[a-z0-9]+)*");
    private static final Set<String> FORMATS = Set.of("duration", "pct", "share", "num", "bytes", "memory", "count", "1f");

    /** The names the template reads, in order of first use. */
    public Set<String> placeholders() {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = TOKEN.matcher(template);
        while (m.find()) if (m.group(1) != null) out.add(m.group(1));
        return out;
    }

    /** Why the template is malformed (an unknown format, an unclosed brace), or null. */
    public String problem() {
        Matcher m = TOKEN.matcher(template);
        int last = 0;
        StringBuilder rest = new StringBuilder();
        while (m.find()) {
            rest.append(template, last, m.start());
            last = m.end();
            if (m.group(2) == null) continue;
            String f = m.group(3);
            if (m.group(2).equals(":") && !FORMATS.contains(f)) {
                return "unknown format '" + f + "' in {" + m.group(1) + ":" + f + "} (" + String.join(", ", FORMATS.stream().sorted().toList())
                        + ", or #one|many, ?one|many)";
            }
            if (!m.group(2).equals(":") && f.split("\\|", -1).length != 2) {
                return "{" + m.group(1) + m.group(2) + f + "} needs two words: one|many";
            }
        }
        rest.append(template.substring(last));
        if (rest.indexOf("{") >= 0 || rest.indexOf("}") >= 0) return "a brace that is no placeholder (write {{} for '{', {}} for '}')";
        return null;
    }

    /** The message for people; a placeholder without data is an error. */
    public String render(Map<String, ?> data) {
        StringBuilder out = new StringBuilder();
        Matcher m = TOKEN.matcher(template);
        int last = 0;
        while (m.find()) {
            out.append(template, last, m.start());
            out.append(m.group(1) == null ? m.group(4) : format(m, data));
            last = m.end();
        }
        return out.append(template.substring(last)).toString();
    }

    /** The template as SARIF writes it: placeholders {@code {0}}, {@code {1}}, ... in order of first use. */
    public String positional() {
        StringBuilder out = new StringBuilder();
        Map<String, Integer> index = new LinkedHashMap<>();
        Matcher m = TOKEN.matcher(template);
        int last = 0;
        while (m.find()) {
            out.append(sarifEscape(template.substring(last, m.start())));
            if (m.group(1) == null) out.append(m.group(4)).append(m.group(4));
            else out.append('{').append(index.computeIfAbsent(m.group(), k -> index.size())).append('}');
            last = m.end();
        }
        return out.append(sarifEscape(template.substring(last))).toString();
    }

    /** SARIF's arguments for {@link #positional()}: every distinct placeholder, formatted. */
    public List<String> arguments(Map<String, ?> data) {
        Map<String, String> seen = new LinkedHashMap<>();
        Matcher m = TOKEN.matcher(template);
        while (m.find()) if (m.group(1) != null) seen.computeIfAbsent(m.group(), k -> format(m, data));
        return new ArrayList<>(seen.values());
    }

    private static String sarifEscape(String literal) {
        return literal.replace("{", "{{").replace("}", "}}");
    }

    private String format(Matcher m, Map<String, ?> data) {
        String name = m.group(1);
        if (!data.containsKey(name)) {
            throw new IllegalArgumentException("message '" + id + "' needs '" + name + "' in its data (given: "
                    + (data.isEmpty() ? "none" : String.join(", ", data.keySet())) + ")");
        }
        Object v = data.get(name);
        String kind = m.group(2);
        if (kind == null) return plain(v);
        String f = m.group(3);
        if (!kind.equals(":")) {
            String[] words = f.split("\\|", -1);
            long n = number(name, v).longValue();
            String word = n == 1 ? words[0] : words[1];
            return kind.equals("#") ? n + " " + word : word;
        }
        double d = number(name, v).doubleValue();
        return switch (f) {
            case "duration" -> Units.duration(d);
            case "pct" -> Units.pct(d);
            case "share" -> Units.share(d);
            case "num" -> Units.num(d);
            case "bytes" -> Units.bytes((long) d);
            case "memory" -> Units.memory((long) d);
            case "count" -> Units.count((long) d);
            case "1f" -> String.format(java.util.Locale.ROOT, "%.1f", d);
            default -> throw new IllegalArgumentException("message '" + id + "': unknown format '" + f + "'");
        };
    }

    private Number number(String name, Object v) {
        if (v instanceof Number n) return n;
        throw new IllegalArgumentException("message '" + id + "': '" + name + "' is formatted as a number but is " + v);
    }

    /** A value without a format, as string concatenation writes it. */
    static String plain(Object v) {
        return String.valueOf(v);
    }
}
