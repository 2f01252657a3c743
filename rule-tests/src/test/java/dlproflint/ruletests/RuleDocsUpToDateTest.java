package dlproflint.ruletests;

import dlproflint.findings.PackInfo;
import dlproflint.findings.RuleMetadata;
import dlproflint.engine.catalog.RuleDocs;
import dlproflint.engine.pack.PackLoader;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The committed rule reference ({@code docs/rules/}) is exactly what the built-in packs render to, and every
 * rule's {@code @helpUri} leads to its page there: a rule added, renamed or re-documented without
 * regenerating the pages fails here rather than leaving a dead link in SARIF and HTML reports.
 */
class RuleDocsUpToDateTest {
    /** What was run at the repository root to produce docs/rules/ (and what its header comments say). */
    private static final String REGENERATE = "dlprof-lint rules docs --output docs/rules";
    private static final String HOW_TO_FIX = "docs/rules/ is out of date; regenerate it at the repository root with"
            + " `mvn -B -q package -DskipTests && ./dlprof-lint rules docs --output docs/rules`, delete pages of"
            + " removed rules, and commit the result";
    private static final String HELP_URI_PREFIX = "https://github.com/dlprof-lint/dlprof-lint/blob/main/";
    private static final Pattern RELATIVE_LINK = Pattern.compile("\\]\\((?!https?:|#|mailto:)([^)#\\s]+)(#[^)]*)?\\)");

    private static List<PackInfo> builtinPacks() throws Exception {
        return AllPacks.engine().packs().stream().filter(p -> PackLoader.BUILTIN.equals(p.source())).toList();
    }

    private static List<RuleMetadata> builtinRules() throws Exception {
        Set<String> ids = builtinPacks().stream().map(PackInfo::id).collect(Collectors.toSet());
        return AllPacks.engine().rules().stream().filter(r -> ids.contains(r.packId())).toList();
    }

    private static SortedMap<String, String> rendered() throws Exception {
        return RuleDocs.render(builtinPacks(), AllPacks.engine().rules(), REGENERATE);
    }

    private static Path docsRules() {
        return AllPacks.repo().resolve("docs/rules");
    }

    @Test
    void bothBuiltinPacksAreDocumented() throws Exception {
        Set<String> packs = builtinPacks().stream().map(PackInfo::id).collect(Collectors.toSet());
        assertTrue(packs.containsAll(Set.of("dlprof", "nsys")), packs.toString());
        // the example site pack is loaded by AllPacks but is not part of the shipped reference
        assertTrue(rendered().keySet().stream().noneMatch(p -> p.startsWith("acme/")), rendered().keySet().toString());
    }

    @Test
    void committedPagesEqualTheRenderedOnes() throws Exception {
        SortedMap<String, String> expected = rendered();
        assertEquals(builtinRules().size() + 1, expected.size(), "one page per rule plus the index");
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> e : expected.entrySet()) {
            Path file = docsRules().resolve(e.getKey());
            if (!Files.isRegularFile(file)) {
                stale.add(e.getKey() + " (missing)");
            } else if (!Files.readString(file, StandardCharsets.UTF_8).equals(e.getValue())) {
                stale.add(e.getKey() + " (differs)");
            }
        }
        assertEquals(List.of(), stale, HOW_TO_FIX);
    }

    @Test
    void noPagesForRulesThatNoLongerExist() throws Exception {
        Set<String> committed = new TreeSet<>();
        try (Stream<Path> files = Files.walk(docsRules())) {
            files.filter(Files::isRegularFile)
                    .forEach(f -> committed.add(docsRules().relativize(f).toString().replace('\\', '/')));
        }
        committed.removeAll(rendered().keySet());
        assertEquals(Set.of(), committed, HOW_TO_FIX);
    }

    @Test
    void everyHelpUriPointsToTheRulesCommittedPage() throws Exception {
        List<String> problems = new ArrayList<>();
        for (RuleMetadata r : builtinRules()) {
            String page = "docs/rules/" + RuleDocs.pagePath(r);
            if (r.helpUri() == null || !r.helpUri().equals(HELP_URI_PREFIX + page)) {
                problems.add(r.id() + ": @helpUri " + r.helpUri() + " should be " + HELP_URI_PREFIX + page);
            }
            if (!Files.isRegularFile(AllPacks.repo().resolve(page))) {
                problems.add(r.id() + ": " + page + " does not exist (" + HOW_TO_FIX + ")");
            }
        }
        assertTrue(builtinRules().size() >= 21, "expected the 12 dlprof and 9 nsys rules, got " + builtinRules().size());
        assertEquals(List.of(), problems);
    }

    @Test
    void relativeLinksInThePagesResolve() throws Exception {
        // help pages link to sibling rules ([bad-tensor-shape](bad-tensor-shape.md)); copied into docs/rules/<pack>/
        // those links must still land on a file
        List<String> broken = new ArrayList<>();
        for (Map.Entry<String, String> e : rendered().entrySet()) {
            Path page = docsRules().resolve(e.getKey());
            Matcher m = RELATIVE_LINK.matcher(e.getValue());
            while (m.find()) {
                if (!Files.exists(page.getParent().resolve(m.group(1)).normalize())) {
                    broken.add(e.getKey() + " -> " + m.group(1));
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void everyPageStartsWithTheGeneratedCommentAndUsesLfEndings() throws Exception {
        for (Map.Entry<String, String> e : rendered().entrySet()) {
            String text = e.getValue();
            assertTrue(text.startsWith("<!-- Generated from ") && text.indexOf('\n') == text.indexOf("-->\n") + 3
                    && text.lines().findFirst().orElseThrow().contains(REGENERATE), e.getKey() + ": " + text.lines().findFirst());
            assertTrue(text.indexOf('\r') < 0 && text.endsWith("\n") && !text.endsWith("\n\n"), e.getKey());
            // the help page's own "# " title was dropped: exactly one h1 per page
            assertEquals(1, headingsOutsideCode(text), e.getKey());
        }
    }

    /** {@code # } lines outside fenced code blocks (shell and Python comments in examples are not titles). */
    private static long headingsOutsideCode(String markdown) {
        long n = 0;
        boolean fenced = false;
        for (String line : markdown.lines().toList()) {
            if (line.stripLeading().startsWith("```")) fenced = !fenced;
            else if (!fenced && line.startsWith("# ")) n++;
        }
        return n;
    }
}
