package dlproflint.engine.catalog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dlproflint.engine.RuleLoadException;
import dlproflint.findings.EvidenceKey;
import dlproflint.findings.MessageSpec;
import dlproflint.findings.ParamSpec;
import dlproflint.findings.ParamType;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.Severity;
import dlproflint.engine.pack.PackFile;
import dlproflint.engine.pack.RulePack;
import org.kie.api.KieBase;
import org.kie.api.definition.KiePackage;
import org.kie.api.definition.rule.Rule;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads rule metadata from the compiled KieBase ({@code Rule.getMetaData()}, i.e. the DRL
 * annotations: the only source of truth) and checks it. Finding rules need {@code @id @name
 * @severity @category @since @summary}; {@code @helpUri @frameworks @inputs @params} are optional at
 * load time (the meta-tests require them for shipped packs). {@code @kind("derive")} rules need
 * nothing but may declare {@code @id} and {@code @params}. Parameters are declared once, typed, with their unit,
 * default and a description: {@code @params({"percent maxPct = 10: fire at this share of the run", "count(ops) minOps = 1: ..."})};
 * messages once, by id, with named placeholders: {@code @messages({"too-slow = {n#op|ops} took {ns:duration}"})}; the
 * evidence keys with their types: {@code @evidence({"ns: duration", "n: count"})}.
 * Help links are not written in rules: they come from the id through the pack's {@code helpUri} template.
 */
public final class RuleCatalog {
    public static final List<String> REQUIRED = List.of("id", "name", "severity", "category", "since", "summary");
    private static final Pattern NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    private static final Pattern PARAM = Pattern.compile(
            "\\s*([a-z]+)(?:\\(([^)]*)\\))?\\s+([A-Za-z][A-Za-z0-9_]*)\\s*=\\s*(\\[[^\\]]*\\]|[^:\\s]+)\\s*:\\s*(\\S.*)", Pattern.DOTALL);
    private static final String PARAMS_FORM = "@params({\"percent maxPct = 10: what it bounds\", \"duration(us) minGpuTimeUs = 0: ...\","
            + " \"count(steps) minSteps = 2: ...\", \"number factor = 3: ...\", \"list names = [a, b]: ...\"})";
    private static final java.util.Set<String> TIME_UNITS = java.util.Set.of("ns", "us", "ms", "s");
    private static final Pattern MESSAGE = Pattern.compile("\\s*(" + MessageSpec.ID.pattern() + ")\\s*=\\s*(\\S.*)", Pattern.DOTALL);
    private static final Pattern EVIDENCE = Pattern.compile("\\s*([A-Za-z][A-Za-z0-9_]*)\\s*:\\s*([a-z]+)\\s*");

    private RuleCatalog() {
    }

    /** The pack's rules in file and line order, from the compiled KieBase's annotations. */
    public static List<LoadedRule> read(RulePack pack, KieBase kbase) throws RuleLoadException {
        return read(pack, annotations(kbase));
    }

    /** Every rule's raw annotations as Drools compiled them (what {@link CatalogFile} stores). */
    public static List<RuleAnnotations> annotations(KieBase kbase) {
        List<RuleAnnotations> out = new ArrayList<>();
        for (KiePackage kp : kbase.getKiePackages()) {
            for (Rule r : kp.getRules()) out.add(RuleAnnotations.of(r.getPackageName(), r.getName(), r.getMetaData()));
        }
        return out;
    }

    /**
     * The pack's rules in file and line order, from their annotations: read from a compiled KieBase, or
     * from the {@link CatalogFile} written when the pack was compiled (no Drools needed then).
     */
    public static List<LoadedRule> read(RulePack pack, List<RuleAnnotations> compiled) throws RuleLoadException {
        Map<String, DrlOutline.RuleHeader> headers = new HashMap<>();
        Map<String, PackFile> files = new HashMap<>();
        for (PackFile f : pack.drlFiles()) {
            DrlOutline o = DrlOutline.of(f);
            for (DrlOutline.RuleHeader h : o.rules()) {
                headers.put(LoadedRule.key(o.packageName(), h.name()), h);
                files.put(LoadedRule.key(o.packageName(), h.name()), f);
            }
        }
        List<LoadedRule> rules = new ArrayList<>();
        for (RuleAnnotations r : compiled) {
            String key = LoadedRule.key(r.packageName(), r.ruleName());
            PackFile file = files.get(key);
            DrlOutline.RuleHeader h = headers.get(key);
            String origin = file == null ? pack.source() : file.origin();
            int line = h == null ? 0 : h.line();
            rules.add(toRule(pack, r, file, origin, line));
        }
        rules.sort(Comparator.comparing((LoadedRule r) -> r.drl() == null ? "" : r.drl().path())
                .thenComparingInt(LoadedRule::line));
        return rules;
    }

    private static LoadedRule toRule(RulePack pack, RuleAnnotations r, PackFile file, String origin, int line)
            throws RuleLoadException {
        Map<String, String> meta = r.values();
        String kind = str(meta, "kind");
        boolean derive = "derive".equals(kind);
        if (kind != null && !derive && !"finding".equals(kind)) {
            throw new RuleLoadException(origin, line, "rule \"" + r.ruleName() + "\": @kind must be \"finding\" or \"derive\", not \"" + kind + "\"");
        }
        String id = str(meta, "id");
        if (!derive) {
            for (String k : REQUIRED) {
                if (str(meta, k) == null) {
                    throw new RuleLoadException(origin, line, "rule \"" + r.ruleName() + "\" lacks required metadata @" + k
                            + " (finding rules need " + String.join(", ", REQUIRED.stream().map(x -> "@" + x).toList()) + ")");
                }
            }
        }
        if (id != null) {
            String prefix = pack.id() + "/";
            if (!id.startsWith(prefix) || !NAME.matcher(id.substring(prefix.length())).matches()) {
                throw new RuleLoadException(origin, line, "rule \"" + r.ruleName() + "\": @id \"" + id
                        + "\" must be \"" + prefix + "<kebab-case-name>\" (pack id, '/', lower-case words joined by '-')");
            }
        }
        if (meta.containsKey("helpUri")) {
            throw new RuleLoadException(origin, line, "rule \"" + r.ruleName() + "\": remove @helpUri; help links come from the rule id"
                    + " through the pack's helpUri template in pack.yaml");
        }
        List<ParamSpec> params = params(str(meta, "params"), origin, line, r.ruleName());
        List<MessageSpec> messages = messages(str(meta, "messages"), origin, line, r.ruleName());
        List<EvidenceKey> evidence = evidence(str(meta, "evidence"), origin, line, r.ruleName());
        if (derive && !messages.isEmpty()) {
            throw new RuleLoadException(origin, line, "rule \"" + r.ruleName() + "\" is a @kind(\"derive\") rule and reports nothing: remove @messages");
        }
        if (!params.isEmpty() && id == null) {
            throw new RuleLoadException(origin, line, "rule \"" + r.ruleName() + "\" declares @params but no @id to match them on");
        }
        Severity severity = null;
        String sev = str(meta, "severity");
        if (sev != null) {
            try {
                severity = Severity.parse(sev);
            } catch (IllegalArgumentException e) {
                throw new RuleLoadException(origin, line, "rule \"" + r.ruleName() + "\": " + e.getMessage());
            }
        }
        String severityFrom = str(meta, "severityFrom");
        if (severityFrom != null && !"impact".equals(severityFrom) && !"declared".equals(severityFrom)) {
            throw new RuleLoadException(origin, line, "rule \"" + r.ruleName() + "\": @severityFrom must be \"impact\" or \"declared\", not \""
                    + severityFrom + "\"");
        }
        String help = file == null ? "" : pack.file(file.sibling(".md")).map(PackFile::text).orElse("");
        RuleMetadata md = new RuleMetadata(id == null ? pack.id() + "/" + r.ruleName() : id, pack.id(), pack.version(),
                str(meta, "name"), severity, str(meta, "category"), str(meta, "since"), str(meta, "summary"),
                id == null ? null : pack.manifest().helpUriOf(id), list(str(meta, "frameworks")),
                list(str(meta, "inputs")), params, help, "declared".equals(severityFrom), messages, evidence);
        return new LoadedRule(r.packageName(), r.ruleName(), derive, md, file, line);
    }

    /** An annotation value as a trimmed string, null when absent or blank. */
    static String str(Map<String, String> meta, String key) {
        String v = meta.get(key);
        if (v == null) return null;
        String s = v.trim();
        // annotations are unquoted by Drools, but be lenient with values that keep their quotes
        if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) s = s.substring(1, s.length() - 1).trim();
        return s.isEmpty() ? null : s;
    }

    static List<String> list(String csv) {
        if (csv == null) return List.of();
        return Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /**
     * {@code ["minOps = 1: desc", "maxPct = 2.5: desc"]} (the annotation's array text) -> specs in order; a
     * malformed entry, a missing description or a repeated name is a load error.
     */
    static List<ParamSpec> params(String text, String origin, int line, String rule) throws RuleLoadException {
        List<ParamSpec> out = new ArrayList<>();
        for (String entry : entries(text, "params", PARAMS_FORM, origin, line, rule)) {
            Matcher m = entry(PARAM, entry, "params", "'type name = default: description' (" + PARAMS_FORM + ")", origin, line, rule);
            String name = m.group(3);
            String where = "rule \"" + rule + "\": @params '" + name + "': ";
            ParamType type;
            try {
                type = ParamType.parse(m.group(1));
            } catch (IllegalArgumentException e) {
                throw new RuleLoadException(origin, line, where + e.getMessage());
            }
            String unit = m.group(2) == null ? "" : m.group(2).strip();
            if (type == ParamType.DURATION && !TIME_UNITS.contains(unit)) {
                throw new RuleLoadException(origin, line, where + "a duration names its unit: duration(ns), duration(us), duration(ms) or duration(s)");
            }
            if (type == ParamType.PERCENT) unit = "%";
            Object value;
            String def = m.group(4);
            if (type == ParamType.LIST) {
                if (!def.startsWith("[")) throw new RuleLoadException(origin, line, where + "a list default is written [a, b]");
                value = list(def.substring(1, def.length() - 1));
            } else {
                try {
                    value = Double.parseDouble(def);
                } catch (NumberFormatException e) {
                    throw new RuleLoadException(origin, line, where + "default is not a number: '" + def + "'");
                }
            }
            String invalid = type.invalid(value);
            if (invalid != null) throw new RuleLoadException(origin, line, where + "default " + def + " is not " + invalid);
            once(out.stream().map(ParamSpec::name), name, "params", origin, line, rule);
            @SuppressWarnings("unchecked")
            List<String> names = value instanceof List<?> l ? (List<String>) l : List.of();
            out.add(new ParamSpec(name, type, unit, value instanceof Double d ? d : Double.NaN, names, m.group(5).strip()));
        }
        return List.copyOf(out);
    }

    /** {@code @messages({"id = template", ...})}: ids unique, templates well formed. */
    static List<MessageSpec> messages(String text, String origin, int line, String rule) throws RuleLoadException {
        String form = "@messages({\"message-id = text with {placeholder}\", ...})";
        List<MessageSpec> out = new ArrayList<>();
        for (String entry : entries(text, "messages", form, origin, line, rule)) {
            Matcher m = entry(MESSAGE, entry, "messages", "'message-id = template' (ids are lower-case words joined by '-'; "
                    + form + ")", origin, line, rule);
            MessageSpec spec = new MessageSpec(m.group(1), m.group(2).strip());
            String problem = spec.problem();
            if (problem != null) throw new RuleLoadException(origin, line, "rule \"" + rule + "\": message '" + spec.id() + "': " + problem);
            once(out.stream().map(MessageSpec::id), spec.id(), "messages", origin, line, rule);
            out.add(spec);
        }
        return List.copyOf(out);
    }

    /** {@code @evidence({"key: type", ...})}: keys unique, types known. */
    static List<EvidenceKey> evidence(String text, String origin, int line, String rule) throws RuleLoadException {
        String form = "@evidence({\"gpuIdleNs: duration\", \"calls: text\", ...})";
        List<EvidenceKey> out = new ArrayList<>();
        for (String entry : entries(text, "evidence", form, origin, line, rule)) {
            Matcher m = entry(EVIDENCE, entry, "evidence", "'key: type' (" + form + ")", origin, line, rule);
            EvidenceKey.Type type;
            try {
                type = EvidenceKey.Type.parse(m.group(2));
            } catch (IllegalArgumentException e) {
                throw new RuleLoadException(origin, line, "rule \"" + rule + "\": @evidence '" + m.group(1) + "': " + e.getMessage());
            }
            once(out.stream().map(EvidenceKey::key), m.group(1), "evidence", origin, line, rule);
            out.add(new EvidenceKey(m.group(1), type));
        }
        return List.copyOf(out);
    }

    /** One entry of an annotation, matched by its form or a load error saying what it must be. */
    private static Matcher entry(Pattern form, String entry, String annotation, String mustBe, String origin, int line, String rule)
            throws RuleLoadException {
        Matcher m = form.matcher(entry);
        if (!m.matches()) {
            throw new RuleLoadException(origin, line, "rule \"" + rule + "\": @" + annotation + " entry '" + entry + "' must be " + mustBe);
        }
        return m;
    }

    /** A name an annotation declares once only. */
    private static void once(java.util.stream.Stream<String> declared, String name, String annotation, String origin, int line,
                             String rule) throws RuleLoadException {
        if (declared.anyMatch(name::equals)) {
            throw new RuleLoadException(origin, line, "rule \"" + rule + "\": @" + annotation + " declares '" + name + "' twice");
        }
    }

    /** An annotation's entries: its array of strings (or one string). */
    private static List<String> entries(String text, String annotation, String form, String origin, int line, String rule)
            throws RuleLoadException {
        if (text == null) return List.of();
        try {
            return text.startsWith("[") ? stringArray(text) : List.of(text);
        } catch (java.io.IOException e) {
            throw new RuleLoadException(origin, line, "rule \"" + rule + "\": @" + annotation + " must be " + form);
        }
    }

    /**
     * A JSON array of scalars, each as its text. Read with jackson-core's streaming parser rather than an object mapper:
     * {@code rules list} and {@code rules explain} read every rule's annotations, and the mapper's classes cost them
     * more than the rest of the command. A null, nested or missing element is an error, as a non-array is.
     */
    static List<String> stringArray(String text) throws IOException {
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_ARRAY) throw new IOException("not an array");
            List<String> out = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t == null || !t.isScalarValue() || t == JsonToken.VALUE_NULL) {
                    throw new IOException("not an array of strings");
                }
                out.add(p.getText());
            }
            return List.copyOf(out);
        }
    }

    private static final JsonFactory JSON = new JsonFactory();
}
