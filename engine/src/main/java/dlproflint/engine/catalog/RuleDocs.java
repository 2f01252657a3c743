package dlproflint.engine.catalog;

import dlproflint.findings.PackInfo;
import dlproflint.findings.ParamSpec;
import dlproflint.findings.RuleMetadata;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Renders the rule reference ({@code docs/rules/}) from a loaded catalogue: an {@code index.md} with one
 * table per pack and one page per rule, {@code <pack>/<rule>.md}, where each built-in rule's help link points.
 *
 * <p>Everything comes from the catalogue (the DRL annotations and the help {@code .md} beside each rule),
 * never from hand-written text, so the pages cannot drift from the rules. The output is deterministic
 * (packs and rules sorted by id, LF line endings, no timestamps) so a test can compare it with the
 * committed files byte for byte.
 */
public final class RuleDocs {
    /** Index page name, relative to the output folder. */
    public static final String INDEX = "index.md";

    private RuleDocs() {
    }

    /**
     * Renders the pages of the given packs.
     *
     * @param packs      the packs to document (others' rules in {@code rules} are ignored)
     * @param rules      the catalogue ({@code LintEngine.rules()})
     * @param regenerate the command that regenerates these files, named in each file's header comment
     * @return file contents by path relative to the output folder ({@code index.md},
     *         {@code dlprof/amp-not-used.md}, ...), sorted by path
     */
    public static SortedMap<String, String> render(List<PackInfo> packs, List<RuleMetadata> rules, String regenerate) {
        List<PackInfo> sortedPacks = packs.stream().sorted(Comparator.comparing(PackInfo::id)).toList();
        Set<String> packIds = sortedPacks.stream().map(PackInfo::id).collect(Collectors.toSet());
        List<RuleMetadata> sortedRules = rules.stream().filter(r -> packIds.contains(r.packId()))
                .sorted(Comparator.comparing(RuleMetadata::id)).toList();
        SortedMap<String, String> files = new TreeMap<>();
        files.put(INDEX, index(sortedPacks, sortedRules, regenerate));
        for (RuleMetadata r : sortedRules) {
            files.put(pagePath(r), page(r, regenerate));
        }
        return files;
    }

    /** {@code <pack>/<rule>.md}: the page's path relative to the output folder (and to {@code docs/rules/}). */
    public static String pagePath(RuleMetadata r) {
        return r.packId() + "/" + ruleName(r) + ".md";
    }

    static String ruleName(RuleMetadata r) {
        String prefix = r.packId() + "/";
        return r.id().startsWith(prefix) ? r.id().substring(prefix.length()) : r.id().replace('/', '-');
    }

    static String index(List<PackInfo> packs, List<RuleMetadata> rules, String regenerate) {
        StringBuilder b = new StringBuilder();
        b.append(comment("the rule packs " + packs.stream().map(PackInfo::id).collect(Collectors.joining(", ")),
                regenerate));
        b.append("# Rule reference\n\n");
        b.append("Every rule of ").append(packs.size() == 1 ? "the pack" : "the packs").append(" below, with its default")
                .append(" severity, category and the profile formats it reads. A rule's page has its metadata,")
                .append(" what it detects, its thresholds, false positives and how to fix.")
                .append(" A finding that measures what its problem costs takes its severity from that cost instead")
                .append(" (from the share of the step a fix recovers: by default error from 20%, warning from 5%, note below;")
                .append(" see \"Severity from impact\" in the configuration guide); the default severity applies to findings without a measured cost.\n");
        for (PackInfo p : packs) {
            List<RuleMetadata> own = rules.stream().filter(r -> r.packId().equals(p.id())).toList();
            b.append("\n## Pack `").append(p.id()).append("` ").append(p.version()).append("\n\n");
            if (p.description() != null && !p.description().isBlank()) {
                b.append(flatten(p.description())).append("\n\n");
            }
            b.append(own.size()).append(own.size() == 1 ? " rule.\n\n" : " rules.\n\n");
            b.append("| rule | severity | category | summary | inputs |\n");
            b.append("|---|---|---|---|---|\n");
            for (RuleMetadata r : own) {
                b.append("| [`").append(r.id()).append("`](").append(pagePath(r)).append(") | ")
                        .append(cell(r.severity() == null ? "" : r.severity().label())).append(" | ")
                        .append(cell(r.category())).append(" | ")
                        .append(cell(r.summary())).append(" | ")
                        .append(cell(String.join(", ", r.inputs()))).append(" |\n");
            }
        }
        return b.toString();
    }

    static String page(RuleMetadata r, String regenerate) {
        return comment("the " + r.packId() + " rule pack (" + ruleName(r) + ".drl annotations and "
                + ruleName(r) + ".md)", regenerate) + explain(r);
    }

    /** A rule's page without the generated-file comment: what {@code rules explain} prints. */
    public static String explain(RuleMetadata r) {
        StringBuilder b = new StringBuilder();
        b.append("# ").append(r.id()).append(" — ").append(flatten(nz(r.name()))).append("\n\n");
        if (r.summary() != null && !r.summary().isBlank()) {
            b.append(flatten(r.summary())).append("\n\n");
        }
        b.append("| | |\n|---|---|\n");
        row(b, "id", "`" + r.id() + "`");
        row(b, "pack", "[`" + r.packId() + "`](../" + INDEX + ") " + nz(r.packVersion()));
        row(b, "default severity", r.severity() == null ? "" : r.severity().label()
                + (r.severityFixed() ? " (kept whatever a finding costs: the rule judges against its own tolerances)"
                : " for a finding without a cost estimate; one with an estimate takes its severity from the share of the step"
                + " (of the analysed range without steps) a fix recovers: with the default thresholds error from 20%, warning"
                + " from 5%, note below ([configuration](../../configuration.md#severity-from-impact); `rules.severity`"
                + " changes the thresholds for this rule or pins a severity)"));
        row(b, "category", nz(r.category()));
        row(b, "since", nz(r.since()));
        row(b, "frameworks", r.frameworks().isEmpty() ? "any" : String.join(", ", r.frameworks()));
        row(b, "inputs", r.inputs().isEmpty() ? "any" : String.join(", ", r.inputs()));
        row(b, "parameters", r.params().isEmpty() ? "none" : r.params().stream()
                .map(p -> "`" + p.name() + "` = `" + defaultText(p) + "`").collect(Collectors.joining(", ")));
        row(b, "messages", r.messages().isEmpty() ? "none" : r.messages().stream()
                .map(m -> "`" + m.id() + "`").collect(Collectors.joining(", ")));
        row(b, "help", r.helpUri() == null ? "" : r.helpUri());
        b.append("\n");
        String help = withParameterTable(helpBody(r.helpMarkdown()), r.params());
        if (!help.isEmpty()) {
            b.append(help).append("\n");
        }
        return b.toString();
    }

    /**
     * The parameter table (from the {@code @params} annotation, the only place parameters are written) under the
     * help page's threshold/parameters heading, or as its own section before the help text when it has none.
     */
    static String withParameterTable(String help, List<ParamSpec> params) {
        if (params.isEmpty()) return help;
        StringBuilder t = new StringBuilder("| parameter | type | default | meaning |\n|---|---|---|---|\n");
        for (ParamSpec p : params) {
            t.append("| `").append(p.name()).append("` | ").append(cell(p.typeText())).append(" | `").append(defaultText(p))
                    .append(p.type() == dlproflint.findings.ParamType.PERCENT ? "%" : p.type() == dlproflint.findings.ParamType.DURATION ? " " + p.unit() : "")
                    .append("` | ").append(cell(p.description())).append(" |\n");
        }
        Matcher m = PARAMS_HEADING.matcher(help);
        if (m.find()) {
            String rest = help.substring(m.end()).stripLeading();
            return help.substring(0, m.end()) + "\n" + t + (rest.isEmpty() ? "" : "\n" + rest);
        }
        return "## Parameters\n" + t + (help.isEmpty() ? "" : "\n" + help);
    }

    private static final Pattern PARAMS_HEADING = Pattern.compile("(?im)^##+ [^\\n]*(threshold|parameter)[^\\n]*$");

    /** The help page without its own {@code # } title (the generated header has one) and with LF endings. */
    static String helpBody(String markdown) {
        if (markdown == null) return "";
        String text = markdown.replace("\r\n", "\n").replace('\r', '\n').strip();
        if (text.startsWith("# ")) {
            int nl = text.indexOf('\n');
            text = nl < 0 ? "" : text.substring(nl + 1).strip();
        }
        return text;
    }

    private static String defaultText(ParamSpec p) {
        return p.type() == dlproflint.findings.ParamType.LIST ? String.join(", ", p.defaultList()) : number(p.defaultValue());
    }

    /** 1.0 as {@code 1}, 0.25 as {@code 0.25}: what the rule author wrote in {@code @params}. */
    static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return Double.toString(v);
        return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
    }

    private static String comment(String source, String regenerate) {
        return "<!-- Generated from " + source + " by 'dlprof-lint rules docs'; do not edit. Regenerate: "
                + regenerate + " -->\n";
    }

    private static void row(StringBuilder b, String key, String value) {
        b.append("| ").append(key).append(" | ").append(value.replace("|", "\\|")).append(" |\n");
    }

    private static String cell(String s) {
        return flatten(nz(s)).replace("|", "\\|");
    }

    /** Line breaks to spaces, nothing cut: a Markdown table cell or heading (unlike OneLine, which bounds terminal lines). */
    private static String flatten(String s) {
        return s.strip().replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
