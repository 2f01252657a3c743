package dlproflint.engine.testing;

import dlproflint.engine.LintEngine;
import dlproflint.engine.RuleLoadException;
import dlproflint.findings.RuleMetadata;
import dlproflint.engine.catalog.LoadedRule;
import dlproflint.engine.pack.PackFile;
import dlproflint.engine.pack.PackManifest;
import dlproflint.engine.pack.RulePack;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Meta-checks of a pack's catalogue, beyond what loading already enforces: complete metadata,
 * {@code <pack>/<kebab-name>} ids matching the file name, a help page with the required sections,
 * test cases with at least one positive and one negative case, GitHub's summary limit, a help link
 * (from the pack's {@code helpUri} template), {@code @since} not newer than the pack, DRL in the DRL10-compatible subset. Run by the rule-tests module for
 * the shipped packs and by {@code dlprof-lint rules test DIR} for site packs.
 */
public final class CatalogCheck {
    /** GitHub code scanning truncates/rejects longer rule short descriptions. */
    public static final int MAX_SUMMARY = 1024;
    /** Help links of shipped rules point at the rendered help page in the repository. */
    public static final String BUILTIN_HELP_TEMPLATE = "https://github.com/dlprof-lint/dlprof-lint/blob/main/docs/rules/{id}.md";
    /** {@code cuda}: framework-independent CUDA usage (e.g. rules over CUDA API calls); {@code any}: no assumption. */
    public static final Set<String> FRAMEWORKS = Set.of("pytorch", "tensorflow", "tensorrt", "jax", "cuda", "any");
    public static final Set<String> INPUTS = Set.of("nsys-sqlite", "dlprof-db", "kineto");

    /**
     * Required help sections: each must be a markdown heading matching the pattern (several
     * wordings are accepted, e.g. "How to fix" or "Fix").
     */
    public static final Map<String, Pattern> HELP_SECTIONS = sections();

    private static Map<String, Pattern> sections() {
        Map<String, Pattern> m = new LinkedHashMap<>();
        m.put("what it detects (the signal)", Pattern.compile("detect|signal|measure|what it"));
        m.put("false positives", Pattern.compile("false.positive|limitation|caveat"));
        m.put("how to fix", Pattern.compile("fix|remed"));
        return m;
    }

    private static final Pattern KEBAB = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

    private CatalogCheck() {
    }

    /** Rule id -> problems (empty list = fine), for every finding rule, in catalogue order. */
    public static Map<String, List<String>> check(LintEngine engine) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        Map<String, RulePack> packs = new LinkedHashMap<>();
        engine.sources().forEach(p -> packs.put(p.id(), p));
        Map<String, CaseFile> casesByRule = new LinkedHashMap<>();
        Map<String, String> caseErrors = new LinkedHashMap<>();
        for (RulePack p : packs.values()) {
            for (PackFile f : p.caseFiles()) {
                try {
                    CaseFile cf = CaseFile.parse(f);
                    if (casesByRule.putIfAbsent(cf.rule(), cf) != null) {
                        caseErrors.put(cf.rule(), "two cases files for the rule: " + casesByRule.get(cf.rule()).file().origin() + " and " + f.origin());
                    }
                } catch (RuleLoadException e) {
                    caseErrors.put(f.path(), e.getMessage());
                }
            }
        }
        Set<String> seen = new HashSet<>();
        for (LoadedRule r : engine.loadedRules()) {
            if (r.derive()) continue;
            List<String> problems = new ArrayList<>();
            RuleMetadata m = r.metadata();
            RulePack pack = packs.get(m.packId());
            if (!seen.add(m.id())) problems.add("duplicate id");
            checkMetadata(r, m, pack, problems);
            checkHelp(r, m, problems);
            checkCases(r, m, casesByRule.get(m.id()), problems);
            if (caseErrors.containsKey(m.id())) problems.add(caseErrors.get(m.id()));
            out.put(m.id(), problems);
        }
        // case files that could not be parsed or that name no rule are problems of the pack
        for (var e : caseErrors.entrySet()) {
            if (!out.containsKey(e.getKey())) out.put(e.getKey(), List.of(e.getValue()));
        }
        for (var e : casesByRule.entrySet()) {
            if (!out.containsKey(e.getKey())) {
                out.put(e.getKey(), List.of(e.getValue().file().origin() + ": cases for unknown rule '" + e.getKey() + "'"));
            }
        }
        return out;
    }

    private static void checkMetadata(LoadedRule r, RuleMetadata m, RulePack pack, List<String> problems) {
        String name = m.id().substring(m.id().indexOf('/') + 1);
        if (!m.id().equals(m.packId() + "/" + name) || !KEBAB.matcher(name).matches()) {
            problems.add("id '" + m.id() + "' is not '" + m.packId() + "/<kebab-case-name>'");
        }
        if (r.drl() != null) {
            for (String v : Drl10Subset.violations(r.drl().text())) problems.add(r.drl().origin() + " " + v);
        }
        if (r.drl() != null && !r.drl().fileName().equals(name + ".drl")) {
            problems.add("declared in " + r.drl().fileName() + "; the file must be named " + name + ".drl");
        }
        if (m.helpUri() == null) problems.add("no help link: add a helpUri template to " + m.packId() + "'s pack.yaml (e.g. https://wiki.example.org/lint/{name})");
        if (m.frameworks().isEmpty()) problems.add("missing @frameworks (e.g. \"pytorch,tensorflow\")");
        for (String f : m.frameworks()) if (!FRAMEWORKS.contains(f)) problems.add("@frameworks: unknown '" + f + "' (known: " + FRAMEWORKS + ")");
        if (m.inputs().isEmpty()) problems.add("missing @inputs (e.g. \"nsys-sqlite,dlprof-db,kineto\")");
        for (String i : m.inputs()) if (!INPUTS.contains(i)) problems.add("@inputs: unknown '" + i + "' (known: " + INPUTS + ")");
        if (m.summary() != null && m.summary().length() > MAX_SUMMARY) {
            problems.add("@summary is " + m.summary().length() + " characters; GitHub allows " + MAX_SUMMARY);
        }
        if (m.since() != null) {
            if (!PackManifest.isSemver(m.since())) problems.add("@since '" + m.since() + "' is not a semantic version");
            else if (PackManifest.compareVersions(m.since(), m.packVersion()) > 0) {
                problems.add("@since " + m.since() + " is newer than the pack version " + m.packVersion());
            }
        }
        if (r.drl() != null) checkWrittenOnce(r, m, problems);
        if (pack != null && pack.builtin() && !BUILTIN_HELP_TEMPLATE.equals(pack.manifest().helpUri())) {
            problems.add("built-in pack '" + pack.id() + "' must use helpUri " + BUILTIN_HELP_TEMPLATE);
        }
    }

    /**
     * A rule is written once: it names its own id only in {@code @id} (parameters are bound to it by the engine, cases
     * default to it), says its problems through declared messages, declares its evidence keys, and reads every
     * parameter it declares.
     */
    private static void checkWrittenOnce(LoadedRule r, RuleMetadata m, List<String> problems) {
        String text = r.drl().text();
        int own = text.split(Pattern.quote(m.id()), -1).length - 1;
        int inAnnotation = text.split(Pattern.quote("@id(\"" + m.id() + "\")"), -1).length - 1;
        if (own > inAnnotation) problems.add(r.drl().origin() + " names its own id '" + m.id() + "' outside @id");
        if (m.messages().isEmpty()) problems.add("declares no @messages (report Message.of(\"<id>\", ...) of a declared message)");
        if (m.evidence().isEmpty()) problems.add("declares no @evidence keys");
        for (var p : m.params()) {
            if (!Pattern.compile("name\\s*==\\s*\"" + Pattern.quote(p.name()) + "\"").matcher(text).find()) {
                problems.add("declares parameter '" + p.name() + "' but never reads it (Param(name == \"" + p.name() + "\", ...))");
            }
        }
    }

    private static void checkHelp(LoadedRule r, RuleMetadata m, List<String> problems) {
        String md = m.helpMarkdown();
        if (md == null || md.isBlank()) {
            problems.add("no help page " + (r.drl() == null ? "" : r.drl().sibling(".md")) + " beside the rule");
            return;
        }
        List<String> headings = headings(md);
        for (var e : HELP_SECTIONS.entrySet()) {
            if (headings.stream().noneMatch(h -> e.getValue().matcher(h).find())) {
                problems.add("help page lacks a section heading for: " + e.getKey());
            }
        }
    }

    /** Markdown headings, lower case; "#" lines inside fenced code blocks are code comments, not headings. */
    static List<String> headings(String md) {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        for (String l : md.lines().toList()) {
            if (l.strip().startsWith("```") || l.strip().startsWith("~~~")) fenced = !fenced;
            else if (!fenced && l.startsWith("#")) out.add(l.toLowerCase(Locale.ROOT));
        }
        return out;
    }

    private static void checkCases(LoadedRule r, RuleMetadata m, CaseFile cases, List<String> problems) {
        if (cases == null) {
            problems.add("no test cases " + (r.drl() == null ? "" : r.drl().sibling(".cases.yaml")) + " beside the rule");
            return;
        }
        boolean positive = cases.cases().stream().anyMatch(c -> c.positiveFor(m.id()));
        boolean negative = cases.cases().stream().anyMatch(c -> !c.positiveFor(m.id()));
        if (!positive) problems.add(cases.file().origin() + ": no positive case (one that expects a finding of " + m.id() + ")");
        if (!negative) problems.add(cases.file().origin() + ": no negative case (expect: [])");
        for (RuleCase c : cases.cases()) {
            for (Expectation e : c.expect()) {
                if (!e.rule().equals(m.id()) || e.count() == 0) continue;
                if (e.messageId() == null) {
                    problems.add(cases.file().origin() + ":" + c.line() + ": case \"" + c.name() + "\" expects a finding without its messageId");
                } else if (m.message(e.messageId()).isEmpty()) {
                    problems.add(cases.file().origin() + ":" + c.line() + ": case \"" + c.name() + "\" expects message '" + e.messageId()
                            + "', which the rule does not declare");
                }
            }
        }
        Optional.ofNullable(r.drl()).map(d -> d.sibling(".cases.yaml"))
                .filter(expected -> !cases.file().path().equals(expected))
                .ifPresent(expected -> problems.add("cases file " + cases.file().path() + " should be " + expected));
    }
}
