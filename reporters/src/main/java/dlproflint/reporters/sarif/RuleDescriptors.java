package dlproflint.reporters.sarif;

import com.contrastsecurity.sarif.MultiformatMessageString;
import com.contrastsecurity.sarif.PropertyBag;
import com.contrastsecurity.sarif.ReportingConfiguration;
import com.contrastsecurity.sarif.ReportingDescriptor;
import dlproflint.findings.Finding;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.Severity;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/** A rule's catalogue entry as a SARIF {@code reportingDescriptor}, within GitHub's field limits. */
final class RuleDescriptors {
    /** Profile findings come from measured facts, not heuristics over code. */
    static final String PRECISION = "high";

    private RuleDescriptors() {
    }

    static ReportingDescriptor of(RuleMetadata r) {
        String summary = firstNonBlank(r.summary(), r.name(), r.id());
        String markdown = r.helpMarkdown() == null ? "" : r.helpMarkdown().strip();
        String full = firstNonBlank(firstParagraph(markdown), summary);
        ReportingDescriptor d = new ReportingDescriptor()
                .withId(r.id())
                .withName(GithubLimits.truncate(firstNonBlank(r.name(), r.id()), GithubLimits.MAX_NAME))
                .withShortDescription(new MultiformatMessageString()
                        .withText(GithubLimits.truncate(summary, GithubLimits.MAX_DESCRIPTION)))
                .withFullDescription(new MultiformatMessageString()
                        .withText(GithubLimits.truncate(full, GithubLimits.MAX_DESCRIPTION)))
                .withHelp(help(summary, markdown, r.helpUri()))
                .withDefaultConfiguration(new ReportingConfiguration().withLevel(configLevel(r.severity())))
                .withProperties(properties(r.category(), r.packId(), r.frameworks(), r.severity()));
        URI help = uri(r.helpUri());
        if (help != null) d.setHelpUri(help);
        if (!r.messages().isEmpty()) {
            com.contrastsecurity.sarif.MessageStrings strings = new com.contrastsecurity.sarif.MessageStrings();
            for (dlproflint.findings.MessageSpec m : r.messages()) {
                strings.setAdditionalProperty(m.id(), new MultiformatMessageString().withText(m.positional()));
            }
            d.setMessageStrings(strings);
        }
        return d;
    }

    /** For a finding whose rule is missing from the run's catalogue (so every ruleId resolves in driver.rules). */
    static ReportingDescriptor synthesized(Finding f) {
        RuleMetadata m = new RuleMetadata(f.ruleId(), f.packId(), f.packVersion(), f.ruleId(), f.severity(),
                f.category(), null, f.ruleId(), f.helpUri(), java.util.List.of(), java.util.List.of(),
                java.util.List.of(), "");
        return of(m);
    }

    private static MultiformatMessageString help(String summary, String markdown, String helpUri) {
        String link = helpUri == null || helpUri.isBlank() ? "" : "\n\nSee " + helpUri;
        String text = markdown.isEmpty() ? summary + link : plain(markdown);
        if (text.length() > GithubLimits.MAX_HELP_TEXT) {
            text = GithubLimits.truncate(text, GithubLimits.MAX_HELP_TEXT - link.length()) + link;
        }
        MultiformatMessageString m = new MultiformatMessageString().withText(text);
        return m.withMarkdown(markdown.isEmpty() ? summary + link : markdown);
    }

    private static PropertyBag properties(String category, String packId, java.util.List<String> frameworks,
                                          Severity severity) {
        Set<String> tags = new LinkedHashSet<>();
        tags.add("performance");
        if (category != null && !category.isBlank()) tags.add(category);
        if (packId != null && !packId.isBlank()) tags.add("pack:" + packId);
        if (frameworks != null) {
            for (String fw : frameworks) if (fw != null && !fw.isBlank()) tags.add(fw);
        }
        Set<String> limited = new LinkedHashSet<>();
        for (String t : tags) if (limited.size() < GithubLimits.MAX_TAGS) limited.add(t);
        return new PropertyBag().withTags(limited)
                .withAdditionalProperty("precision", PRECISION)
                .withAdditionalProperty("problem.severity", problemSeverity(severity));
    }

    static String problemSeverity(Severity s) {
        if (s == null) return "warning";
        return switch (s) {
            case ERROR -> "error";
            case WARNING -> "warning";
            case NOTE -> "recommendation";
        };
    }

    static ReportingConfiguration.Level configLevel(Severity s) {
        if (s == null) return ReportingConfiguration.Level.WARNING;
        return switch (s) {
            case ERROR -> ReportingConfiguration.Level.ERROR;
            case WARNING -> ReportingConfiguration.Level.WARNING;
            case NOTE -> ReportingConfiguration.Level.NOTE;
        };
    }

    /** The help page's first prose paragraph (headings skipped), markdown markers removed. */
    static String firstParagraph(String markdown) {
        if (markdown == null) return null;
        for (String para : markdown.replace("\r\n", "\n").split("\n\\s*\n")) {
            String p = para.strip();
            if (p.isEmpty() || p.startsWith("#") || p.startsWith("```") || p.startsWith("|")) continue;
            return plain(p).replaceAll("\\s*\n\\s*", " ");
        }
        return null;
    }

    /** Markdown made readable as text: code fences, emphasis and link syntax removed, headings kept as lines. */
    static String plain(String markdown) {
        return markdown.replace("\r\n", "\n")
                .replaceAll("(?m)^```.*$\n?", "")
                .replaceAll("(?m)^#{1,6}\\s*", "")
                .replaceAll("\\[([^\\]]*)\\]\\(([^)]*)\\)", "$1 ($2)")
                .replaceAll("(\\*\\*|__)(.+?)\\1", "$2")
                .replaceAll("`([^`]*)`", "$1")
                .strip();
    }

    private static String firstNonBlank(String... values) {
        for (String v : values) if (v != null && !v.isBlank()) return v.strip();
        return "";
    }

    private static URI uri(String s) {
        if (s == null || s.isBlank()) return null;
        try {
            URI u = new URI(s.strip());
            return u.isAbsolute() ? u : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }

}
