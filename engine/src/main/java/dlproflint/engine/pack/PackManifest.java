package dlproflint.engine.pack;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dlproflint.engine.RuleLoadException;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A pack's {@code pack.yaml}:
 * <pre>
 * id: acme                 # lower-case, digits and '-'; the prefix of every rule id in the pack
 * version: 1.2.0           # semantic version, reported with every finding
 * description: ACME cluster conventions
 * minEngine: 0.1.0         # optional: oldest engine version the pack works with
 * helpUri: https://wiki.acme.org/lint/{name}   # optional: every rule's help link, from its id
 * scope: job               # optional: profile (default) - its rules see one profile's facts at a time;
 *                          # job - they see a distributed job's cross-rank facts, once per job
 * trusted: true            # optional: the pack's code may use what the static checks forbid (files, network,
 *                          # processes, threads, reflection, System/Runtime); see docs/writing-rules.md
 * </pre>
 * The {@code helpUri} template is the only place help links are written: {@code {id}} expands to the rule id
 * ({@code acme/fp16-not-bf16}), {@code {name}} to its name within the pack ({@code fp16-not-bf16}).
 */
public record PackManifest(String id, String version, String description, String minEngine, String helpUri,
                           String scope, Boolean trusted) {
    public static final String FILE_NAME = "pack.yaml";
    /** Rules matching one profile's facts ({@code dlproflint.facts.ProfileFacts}). */
    public static final String PROFILE_SCOPE = "profile";
    /** Rules matching a distributed job's cross-rank facts ({@code dlproflint.facts.JobFacts}). */
    public static final String JOB_SCOPE = "job";

    /** A profile-scope manifest. */
    public PackManifest(String id, String version, String description, String minEngine, String helpUri) {
        this(id, version, description, minEngine, helpUri, null, null);
    }

    /** A manifest without {@code trusted}: the pack's code is checked ({@link SiteCodeCheck}). */
    public PackManifest(String id, String version, String description, String minEngine, String helpUri, String scope) {
        this(id, version, description, minEngine, helpUri, scope, null);
    }

    /** The largest {@code pack.yaml} read: a manifest is a few lines. */
    public static final int MAX_BYTES = 64 * 1024;
    /** The longest description: it is printed by {@code rules list} and in every report's tool section. */
    public static final int MAX_DESCRIPTION = 1024;

    /** Whether the manifest says {@code trusted: true}: its code is not checked statically. */
    public boolean isTrusted() {
        return Boolean.TRUE.equals(trusted);
    }

    /** Whether the pack's rules run once per distributed job instead of once per profile. */
    public boolean jobScope() {
        return JOB_SCOPE.equals(scope);
    }
    static final Pattern ID = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    static final Pattern SEMVER = Pattern.compile("(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z.-]+)?");

    /** The fields a manifest may have, in the order error messages list them. */
    static final List<String> FIELDS = List.of("id", "version", "description", "minEngine", "helpUri", "scope", "trusted");
    /**
     * Read with the streaming YAML parser, field by field, not by data binding: a manifest is a flat mapping of a few
     * scalars, and {@code --version} and {@code rules list} read every built-in one, where loading Jackson's
     * object mapper (some 450 classes) cost more than the rest of the command.
     */
    private static final YAMLFactory YAML = new YAMLFactory();

    /** Parses and validates a manifest; errors name {@code file.origin()} and the line. */
    public static PackManifest parse(PackFile file) throws RuleLoadException {
        if (file.content().length > MAX_BYTES) {
            throw new RuleLoadException(file.origin(), 0, "pack manifest is " + file.content().length
                    + " bytes; a pack.yaml is a few lines (at most " + MAX_BYTES / 1024 + " KiB are read)");
        }
        PackManifest m;
        try {
            m = read(file);
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new RuleLoadException(file.origin(), line, "bad pack manifest: " + e.getOriginalMessage());
        } catch (java.io.IOException e) {
            throw new RuleLoadException(file.origin(), 0, "cannot read pack manifest: " + e.getMessage());
        }
        if (m == null) throw new RuleLoadException(file.origin(), 1, "empty pack manifest (needs id, version, description)");
        String text = file.text();
        require(file, text, "id", m.id);
        require(file, text, "version", m.version);
        require(file, text, "description", m.description);
        if (!ID.matcher(m.id).matches()) {
            throw new RuleLoadException(file.origin(), lineOf(text, "id"),
                    "pack id '" + visible(m.id) + "' must be lower-case letters, digits and '-'");
        }
        if (!SEMVER.matcher(m.version).matches()) {
            throw new RuleLoadException(file.origin(), lineOf(text, "version"),
                    "pack version '" + visible(m.version) + "' is not a semantic version (MAJOR.MINOR.PATCH)");
        }
        if (m.minEngine != null && !SEMVER.matcher(m.minEngine).matches()) {
            throw new RuleLoadException(file.origin(), lineOf(text, "minEngine"),
                    "minEngine '" + visible(m.minEngine) + "' is not a semantic version");
        }
        if (m.description.length() > MAX_DESCRIPTION) {
            throw new RuleLoadException(file.origin(), lineOf(text, "description"), "description is " + m.description.length()
                    + " characters long; at most " + MAX_DESCRIPTION + " are allowed (it is printed by 'rules list' and in every report)");
        }
        if (m.helpUri != null) checkHelpUri(file, text, m.helpUri);
        if (m.scope != null && !PROFILE_SCOPE.equals(m.scope) && !JOB_SCOPE.equals(m.scope)) {
            throw new RuleLoadException(file.origin(), lineOf(text, "scope"),
                    "scope '" + visible(m.scope) + "' must be 'profile' (one profile's facts) or 'job' (a distributed job's cross-rank facts)");
        }
        return m;
    }

    /** The manifest's fields as written (null: an empty document); structure and field names are checked here. */
    private static PackManifest read(PackFile file) throws java.io.IOException, RuleLoadException {
        Map<String, String> fields = new HashMap<>();
        Boolean trusted = null;
        try (JsonParser p = YAML.createParser(file.content())) {
            JsonToken root = p.nextToken();
            if (root == null || root == JsonToken.VALUE_NULL) return null;
            if (root != JsonToken.START_OBJECT) {
                throw new RuleLoadException(file.origin(), Math.max(1, p.currentLocation().getLineNr()),
                        "bad pack manifest: it must be a mapping of fields (" + String.join(", ", FIELDS) + ")");
            }
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String name = p.currentName();
                if (!FIELDS.contains(name)) {
                    throw new RuleLoadException(file.origin(), Math.max(1, lineOf(file.text(), name)),
                            "unknown field '" + name + "' in pack manifest (allowed: " + String.join(", ", FIELDS) + ")");
                }
                JsonToken value = p.nextToken();
                if (value == null || !value.isScalarValue()) {
                    throw new RuleLoadException(file.origin(), Math.max(1, lineOf(file.text(), name)),
                            "bad pack manifest: field '" + name + "' must be a single value, not a list or a mapping");
                }
                if (name.equals("trusted")) {
                    trusted = trusted(file, p, value);
                } else {
                    fields.put(name, value == JsonToken.VALUE_NULL ? null : p.getText());
                }
            }
        }
        return new PackManifest(fields.get("id"), fields.get("version"), fields.get("description"), fields.get("minEngine"),
                fields.get("helpUri"), fields.get("scope"), trusted);
    }

    /** {@code trusted}: a YAML boolean, or the words true and false written as a string. */
    private static Boolean trusted(PackFile file, JsonParser p, JsonToken value) throws java.io.IOException, RuleLoadException {
        if (value == JsonToken.VALUE_NULL) return null;
        if (value == JsonToken.VALUE_TRUE || value == JsonToken.VALUE_FALSE) return value == JsonToken.VALUE_TRUE;
        String text = p.getText().trim();
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) return Boolean.valueOf(text);
        throw new RuleLoadException(file.origin(), Math.max(1, lineOf(file.text(), "trusted")),
                "bad pack manifest: trusted '" + visible(text) + "' must be true or false");
    }

    /**
     * The help link template ends up as a link in SARIF viewers and the HTML report, so only an http(s) URI is taken:
     * a {@code javascript:} or {@code data:} link would run in the reader's browser, a {@code file:} one would point
     * into their machine. The message says which field and why, quoting the value with its control characters shown.
     */
    private static void checkHelpUri(PackFile file, String text, String uri) throws RuleLoadException {
        int line = lineOf(text, "helpUri");
        java.util.regex.Matcher scheme = java.util.regex.Pattern.compile("^\\s*([A-Za-z][A-Za-z0-9+.-]*):").matcher(uri);
        String shown = visible(uri);
        if (scheme.find() && !scheme.group(1).equalsIgnoreCase("http") && !scheme.group(1).equalsIgnoreCase("https")) {
            throw new RuleLoadException(file.origin(), line, "helpUri '" + shown + "' is refused: its scheme '"
                    + scheme.group(1) + ":' is not http or https (help links are opened by whoever reads a report, and a "
                    + "javascript:, data: or file: link would run or open something on their machine)");
        }
        if (!uri.matches("https?://\\S+")) {
            throw new RuleLoadException(file.origin(), line, "helpUri '" + shown + "' is refused: it must be an absolute "
                    + "http(s) link without spaces or control characters, e.g. https://wiki.example.org/lint/{name}");
        }
        if (!(uri.contains("{id}") || uri.contains("{name}"))) {
            throw new RuleLoadException(file.origin(), line, "helpUri '" + shown + "' must contain {id} or {name}: it is a "
                    + "template every rule's link is made from");
        }
    }

    /** At most 120 characters of a value, control and invisible characters shown as {@code \\uXXXX}. */
    static String visible(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && b.length() < 120; i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT || c == '\u2028' || c == '\u2029') {
                b.append(String.format("\\u%04X", (int) c));
            } else {
                b.append(c);
            }
        }
        return s.length() > 120 ? b + "..." : b.toString();
    }

    /** The help link of a rule of this pack, or null when the pack declares no {@code helpUri} template. */
    public String helpUriOf(String ruleId) {
        if (helpUri == null) return null;
        String name = ruleId.substring(ruleId.indexOf('/') + 1);
        return helpUri.replace("{id}", ruleId).replace("{name}", name);
    }

    private static void require(PackFile file, String text, String key, String value) throws RuleLoadException {
        if (value == null || value.isBlank()) {
            throw new RuleLoadException(file.origin(), Math.max(1, lineOf(text, key)),
                    "pack manifest lacks required field '" + key + "'");
        }
    }

    /** 1-based line of a top-level key, or 0. */
    public static int lineOf(String text, String key) {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith(key + ":")) return i + 1;
        }
        return 0;
    }

    public static boolean isSemver(String v) {
        return v != null && SEMVER.matcher(v).matches();
    }

    /** Compares two semantic versions by MAJOR.MINOR.PATCH (pre-release tags ignored). */
    public static int compareVersions(String a, String b) {
        String[] x = a.split("[-+]")[0].split("\\.");
        String[] y = b.split("[-+]")[0].split("\\.");
        for (int i = 0; i < 3; i++) {
            int c = Long.compare(Long.parseLong(x[i]), Long.parseLong(y[i]));
            if (c != 0) return c;
        }
        return 0;
    }
}
