package dlproflint.cli.hostile;

import dlproflint.reporters.html.DevToolsPage;
import dlproflint.reporters.html.HeadlessChromium;
import dlproflint.reporters.markdown.MarkdownDoc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 7 item 4, "nothing runs": a copy of a real nsys export is rewritten so kernel names, NVTX op
 * names and the GPU name are markup, spreadsheet formulas and control characters; it is linted once
 * through the CLI with every report format, and each report must carry the names as data only (markdown:
 * as text, never markup, as a CommonMark parser with GitHub's tables reads it). A test
 * pack ({@code hostile/*-named}) reports every kernel, op and GPU by name, so every string reaches every
 * format. The original corpus file is only copied.
 */
@org.junit.jupiter.api.Tag("hostile")
@Timeout(300)
class NothingRunsTest {
    static final String SCRIPT = "<script>window.__pwned=1</script>";
    static final String IMG = "\"><img src=x onerror=\"document.title='pwned'\">";
    static final String FORMULA = "=HYPERLINK(\"http://evil\")";
    static final String CONTROL = "ctl\u0007\u001b[2J\r\nnext\u0008\u007f\u0001end";
    static final String PLUS = "+cmd|' /C calc'!A0";
    static final String AT = "@SUM(1+1)*cmd|' /C calc'!A0";
    static final String MINUS = "-2+3+cmd|' /C calc'!A0";
    /** A right-to-left override: the name would read differently from what it is (Trojan Source). */
    static final String BIDI = "abc\u202Egnp.exe";
    /** Ends a script element and opens another: the HTML report embeds kernel names in JSON data blocks. */
    static final String SCRIPT_END = "</script><script>document.title='pwned-json'</script><!--<script>\u2028x";
    /** Issue 28: U+FF1D FULLWIDTH EQUALS SIGN is '=' to spreadsheet applications in some locales. */
    static final String FULLWIDTH = "\uFF1D1+1";
    /** Issue 28: a formula behind a line feed (a cell an import trims). */
    static final String LF_FORMULA = "\n=1+1";
    /** Issue 28: the other bidi and separator characters a name can hide behind. */
    static final String SEPARATORS = "op\u061Cname\u200Fwith\u2028separators\u2029and\u2066isolates\u2069";
    static final List<String> KERNEL_NAMES = List.of(SCRIPT, IMG, FORMULA, CONTROL, PLUS, AT, MINUS, BIDI, SCRIPT_END,
            FULLWIDTH, LF_FORMULA, SEPARATORS);
    /** NVTX op names sit inside a Python-dict literal in single quotes: the strings without a single quote. */
    static final List<String> OP_NAMES = List.of(SCRIPT, FORMULA, CONTROL);

    @TempDir
    static Path dir;
    static Path profile;
    static HostileCli.Result run;

    @BeforeAll
    static void lintHostileCopy() throws Exception {
        Path src = Corpus.file("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite");
        String srcSha = HostileCli.sha256(src);
        List<String> sql = new ArrayList<>();
        List<String> kernelStringIds = HostileInputs.query(src,
                "SELECT DISTINCT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY shortName LIMIT " + KERNEL_NAMES.size());
        for (int i = 0; i < kernelStringIds.size(); i++) {
            String id = kernelStringIds.get(i);
            // short and demangled name alike, for every kernel row with this short name
            sql.add("UPDATE StringIds SET value = " + lit(KERNEL_NAMES.get(i)) + " WHERE id = " + id
                    + " OR id IN (SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE shortName = " + id + ")");
        }
        // Op names come from the PyProf/DLProf markers ('op': 'relu', funcStack .../relu, aten::relu): every
        // occurrence of three op words is replaced, wherever the reader takes the name from.
        List<String> words = List.of("relu", "conv2d", "linear");
        for (int i = 0; i < words.size(); i++) {
            sql.add("UPDATE NVTX_EVENTS SET text = replace(text, " + lit(words.get(i)) + ", " + lit(OP_NAMES.get(i)) + ")");
        }
        sql.add("UPDATE TARGET_INFO_GPU SET name = " + lit(IMG + SCRIPT));
        profile = new HostileInputs(dir).sql(src, "hostile.sqlite", sql.toArray(String[]::new));
        assertEquals(srcSha, HostileCli.sha256(src), "the corpus original is never modified");

        Path pack = Files.createDirectories(dir.resolve("hostile-pack"));
        for (String f : List.of("pack.yaml", "kernel-named.drl", "kernel-named.md", "kernel-named.cases.yaml",
                "op-named.drl", "op-named.md", "op-named.cases.yaml", "gpu-named.drl", "gpu-named.md", "gpu-named.cases.yaml")) {
            try (InputStream in = NothingRunsTest.class.getClassLoader().getResourceAsStream("hostile/pack/" + f)) {
                Files.write(pack.resolve(f), in.readAllBytes());
            }
        }
        String sha = HostileCli.sha256(profile);
        run = new HostileCli(dir).run("hostile.sqlite", "--rules", "hostile-pack", "--fail-on", "none",
                "--report", "text=r.txt", "--report", "json=r.json", "--report", "sarif=r.sarif",
                "--report", "csv=r.csv", "--report", "markdown=r.md", "--report", "codequality=r.cq.json");
        assertEquals(sha, HostileCli.sha256(profile), "input unchanged");
        assertEquals(0, run.code(), run::toString);
        assertEquals(1, run.errLines().size(), "only the summary line: " + run);
    }

    /** An SQL string literal. */
    private static String lit(String s) {
        StringBuilder b = new StringBuilder("(''");
        for (char c : s.toCharArray()) {
            if (c < 0x20 || c == 0x7f) b.append(" || char(").append((int) c).append(")");
            else b.append(" || '").append(c == '\'' ? "''" : String.valueOf(c)).append("'");
        }
        return b.append(")").toString();
    }

    private static Set<String> allText(JsonNode n) {
        Set<String> out = new HashSet<>();
        collect(n, out);
        return out;
    }

    private static void collect(JsonNode n, Set<String> out) {
        if (n.isTextual()) out.add(n.asText());
        n.forEach(c -> collect(c, out));
        n.fieldNames().forEachRemaining(out::add);
    }

    private static boolean anyContains(Set<String> values, String s) {
        return values.stream().anyMatch(v -> v.contains(s));
    }

    @Test
    void jsonAndSarifParseAndCarryTheExactStrings() throws IOException {
        ObjectMapper om = new ObjectMapper();
        for (String report : List.of("r.json", "r.sarif", "r.cq.json")) {
            Set<String> text = allText(om.readTree(dir.resolve(report).toFile()));
            for (String s : KERNEL_NAMES) assertTrue(anyContains(text, s), report + " carries kernel name " + escape(s));
            assertTrue(anyContains(text, IMG + SCRIPT), report + " carries the GPU name");
            // "op <path/name> ran" (the op name is the DLProf funcStack path): at least one op took a hostile name
            List<String> opMessages = text.stream().filter(t -> t.contains("op ") && t.contains(" ran")).toList();
            assertTrue(opMessages.stream().anyMatch(m -> OP_NAMES.stream().anyMatch(m::contains)),
                    report + " carries a hostile op name: " + opMessages.stream().map(NothingRunsTest::escape).toList());
            // JSON escapes every control, bidi and separator character (SafeJson): none is in the file raw
            assertNoRawControls(Files.readString(dir.resolve(report)), report, "\n");
        }
    }

    @Test
    void csvCellsCannotStartAFormula() throws IOException {
        assertNoRawControls(Files.readString(dir.resolve("r.csv"), StandardCharsets.UTF_8), "r.csv", "\n\r");
        List<List<String>> rows = Csv.parse(Files.readString(dir.resolve("r.csv"), StandardCharsets.UTF_8));
        assertTrue(rows.size() > 1, "a header and findings");
        int hostileCells = 0;
        for (List<String> row : rows) {
            for (String cell : row) {
                assertFalse(formulaStart(cell), "a cell a spreadsheet would run: " + escape(cell));
                for (String s : List.of(FORMULA, PLUS, AT, MINUS)) if (cell.contains(s)) hostileCells++;
            }
        }
        assertTrue(hostileCells >= 3, "the formula-like names are in the CSV (neutralised): " + hostileCells);
    }

    /**
     * Issue 17 item 6: the DLProf-format CSVs ({@code report --reports all}: summary, detailed, iteration,
     * kernel, op-type, group and expert-systems reports) neutralise the same way as the lint CSV.
     */
    @Test
    void dlprofFormatCsvsAreNeutralised() throws IOException {
        HostileCli.Result r = new HostileCli(dir).run("report", "hostile.sqlite", "--rules", "hostile-pack",
                "--reports", "all", "--formats", "csv,json", "--output-path", "dlprof-reports");
        assertEquals(0, r.code(), r::toString);
        List<Path> csvs;
        try (var s = Files.list(dir.resolve("dlprof-reports"))) {
            csvs = s.filter(p -> p.toString().endsWith(".csv")).sorted().toList();
        }
        assertTrue(csvs.size() >= 7, "every DLProf CSV: " + csvs);
        int hostileCells = 0;
        List<Path> jsons;
        try (var s = Files.list(dir.resolve("dlprof-reports"))) {
            jsons = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertTrue(jsons.size() >= 6, "every DLProf JSON: " + jsons);
        Set<String> jsonText = new HashSet<>();
        for (Path f : jsons) {
            String raw = Files.readString(f, StandardCharsets.UTF_8);
            assertNoRawControls(raw, f.getFileName() + "", "\n");
            jsonText.addAll(allText(new ObjectMapper().readTree(raw)));
        }
        for (String s : List.of(FULLWIDTH, SEPARATORS)) assertTrue(anyContains(jsonText, s), "the DLProf JSON keeps " + escape(s) + " exactly");
        for (Path f : csvs) {
            String raw = Files.readString(f, StandardCharsets.UTF_8);
            // a line feed is data inside a quoted cell (DLProf's stack traces); CR only ends a record
            assertNoRawControls(raw, f.getFileName() + "", "\n\r");
            for (List<String> row : Csv.parse(raw)) {
                for (String cell : row) {
                    assertFalse(formulaStart(cell), f.getFileName() + ": a cell a spreadsheet would run: " + escape(cell));
                    for (String s : List.of(FORMULA, PLUS, AT, MINUS, FULLWIDTH, LF_FORMULA)) if (cell.contains(s)) hostileCells++;
                }
            }
        }
        assertTrue(hostileCells >= 6, "the formula-like names are in the DLProf CSVs (neutralised): " + hostileCells);
    }

    /**
     * Whether a spreadsheet would evaluate the cell: a trigger as its first character, or as its first visible one
     * after white space and line breaks, or a compatibility form of one (NFKC: the fullwidth U+FF1D is '='); a plain
     * ASCII number is a number.
     */
    static boolean formulaStart(String cell) {
        if (cell.isEmpty()) return false;
        char first = cell.charAt(0);
        if ("=@\t\r\n".indexOf(first) >= 0) return true;
        int i = 0;
        while (i < cell.length() && (Character.isWhitespace(cell.charAt(i)) || Character.isSpaceChar(cell.charAt(i)))) i++;
        if (i == cell.length()) return false;
        String c = java.text.Normalizer.normalize(String.valueOf(cell.charAt(i)), java.text.Normalizer.Form.NFKC);
        boolean number = i == 0 && cell.matches("[+-]?[0-9.]+([Ee][+-]?[0-9]+)?");
        return c.equals("=") || c.equals("@") || ((c.equals("-") || c.equals("+")) && !number);
    }

    private static void assertNoRawControls(String text, String what, String allowed) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || (c >= '\u202A' && c <= '\u202E')
                    || (c >= '\u2066' && c <= '\u2069') || c == '\u061C' || c == '\u200E' || c == '\u200F' || c == '\u2028'
                    || c == '\u2029' || c == '\uFEFF';
            assertFalse(control && allowed.indexOf(c) < 0, what + ": raw control or bidi character " + (int) c + " at " + i
                    + ": " + escape(text.substring(Math.max(0, i - 40), Math.min(text.length(), i + 40))));
        }
    }

    @Test
    void textReportHasNoRawControlCharacters() throws IOException {
        String text = Files.readString(dir.resolve("r.txt"), StandardCharsets.UTF_8);
        assertNoRawControls(text, "text report", "\n");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            assertFalse((c < 0x20 && c != '\n') || c == 0x7f || (c >= 0x80 && c < 0xa0),
                    "raw control character " + (int) c + " at " + i + ": " + escape(text.substring(Math.max(0, i - 40), Math.min(text.length(), i + 40))));
        }
        assertTrue(text.contains("window.__pwned"), "the names are shown, escaped: " + text.length());
    }

    @Test
    void markdownShowsTheNamesAsInertText() throws IOException {
        String md = Files.readString(dir.resolve("r.md"), StandardCharsets.UTF_8);
        MarkdownDoc doc = MarkdownDoc.parse(md);
        assertEquals(List.of("<details><summary>Next steps</summary>", "</details>"), doc.rawHtml(), "no HTML from a name");
        assertEquals(List.of(), doc.formattingInTables(), "no formatting from a name");
        for (MarkdownDoc.Link link : doc.links()) {
            assertTrue(link.destination().startsWith("https://"), "only help links: " + link);
        }
        List<List<List<String>>> tables = doc.tables();
        List<List<String>> findings = tables.get(tables.size() - 1);
        List<String> header = findings.get(0);
        assertEquals(List.of("Severity", "Rule", "Finding", "Impact"), header, "the built-in rules say what their findings cost");
        for (List<String> row : findings) assertEquals(header.size(), row.size(), "a pipe in a name added no column: " + row);
        String cells = String.join("\n", findings.stream().map(r -> String.join(" ", r)).toList());
        assertTrue(cells.contains(SCRIPT), "the kernel name is shown as text: " + escape(cells));
        assertTrue(cells.contains(FORMULA), "the formula name is shown as text");
        for (int i = 0; i < md.length(); i++) {
            char c = md.charAt(i);
            assertFalse((c < 0x20 && c != '\n') || c == 0x7f, "raw control character " + (int) c);
        }
        String html = doc.html();
        assertFalse(html.contains("<script"), "rendered markdown has no script element");
        assertFalse(html.contains("<img"), "rendered markdown has no img element");
    }

    @Test
    void htmlRunsNoInjectedScript() throws Exception {
        Path html = dir.resolve("r.html");
        HostileCli.Result r = new HostileCli(dir).run("hostile.sqlite", "--rules", "hostile-pack", "--fail-on", "none",
                "--report", "html=r.html");
        assertEquals(0, r.code(), r::toString);
        String raw = Files.readString(html, StandardCharsets.UTF_8);
        assertFalse(raw.contains(SCRIPT), "raw <script> from a name");
        assertFalse(raw.contains("<img src=x"), "raw <img> from a name");
        assertFalse(raw.contains("document.title='pwned-json'</script>"), "raw script end from a name");
        assertTrue(raw.contains("Content-Security-Policy"), "the report carries a CSP");
        assertFalse(raw.matches("(?s).*script-src[^;\"]*'unsafe-inline'.*"), "the CSP forbids inline script");
        // the data blocks: inert JSON without a single markup character, holding the names exactly (as cleaned)
        java.util.regex.Matcher block = java.util.regex.Pattern.compile(
                "<script type=\"application/json\" id=\"(p1-d-[a-z]+)\">(.*?)</script>", java.util.regex.Pattern.DOTALL).matcher(raw);
        Set<String> blockText = new HashSet<>();
        int blocks = 0;
        while (block.find()) {
            blocks++;
            assertFalse(block.group(2).matches("(?s).*[<>&\u2028\u2029].*"), block.group(1) + " holds a raw markup character");
            blockText.addAll(allText(new ObjectMapper().readTree(block.group(2))));
        }
        assertEquals(8, blocks, "data blocks");
        String cleaned = SCRIPT_END.replace("\u2028", "\\u2028"); // the report shows invisible separators as escapes
        assertTrue(blockText.contains(cleaned), "the kernels block carries the name: " + blockText.stream()
                .filter(t -> t.contains("pwned-json")).map(NothingRunsTest::escape).toList());
        assertEquals(1, count(raw, "<script>"), "one script element runs");
        HeadlessChromium chromium = HeadlessChromium.require();
        Path browser = Files.createDirectories(dir.resolve("browser"));
        String dom = chromium.dumpDomAfterTimers(html.toUri().toString(), browser);
        assertTrue(dom.contains("&lt;script&gt;window.__pwned=1&lt;/script&gt;"), "the name is shown as text");
        assertFalse(dom.contains(SCRIPT), "no injected <script> element in the DOM");
        assertFalse(dom.contains("<img src=\"x\""), "no injected <img> element in the DOM");
        assertFalse(dom.contains("<title>pwned"), "no onerror handler or injected script ran");
        // the script renders rows from the JSON: search every kernel table for the name, as a user would
        try (DevToolsPage page = chromium.open(1280, 900, browser)) {
            page.navigate(html.toUri().toString());
            assertEquals("ready", page.evalString("document.documentElement.getAttribute('data-report')"));
            page.eval("location.hash = 'p1-v-ops'");
            page.type("#p1-t-kernels .dt-search input", "pwned-json");
            page.waitFor(() -> page.evalInt("document.querySelectorAll('#p1-t-kernels tbody tr[data-row]').length") > 0,
                    "the hostile kernel row");
            String cell = page.evalString("document.querySelector('#p1-t-kernels tbody tr[data-row] td').textContent");
            assertTrue(cell.startsWith("</script><script>document.title='pwned-json'"), "rendered as text: " + escape(cell));
            page.eval("location.hash = 'p1-v-kbi'");
            page.eval("document.querySelector('#p1-t-kbi-kernels .dt-search input').value = 'pwned'");
            page.eval("document.querySelector('#p1-t-kbi-kernels .dt-search input').dispatchEvent(new Event('input'))");
            assertTrue(page.evalString("document.title").startsWith("dlprof-lint report"), "title untouched");
            assertTrue(page.eval("typeof window.__pwned === 'undefined'").asBoolean(), "no injected script ran");
            assertEquals(1 + blocks, page.evalInt("document.scripts.length"), "no script element was added");
            assertEquals(0, page.evalInt("document.querySelectorAll('img, iframe, object, embed').length"));
            assertEquals(List.of(), page.problems(), "no script error");
        }
    }

    private static int count(String s, String literal) {
        int n = 0;
        for (int i = s.indexOf(literal); i >= 0; i = s.indexOf(literal, i + 1)) n++;
        return n;
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) b.append(c < 0x20 || c == 0x7f || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        return b.toString();
    }

    /** RFC 4180 (quoted fields may hold commas, quotes and line breaks). */
    static final class Csv {
        static List<List<String>> parse(String s) {
            List<List<String>> rows = new ArrayList<>();
            List<String> row = new ArrayList<>();
            StringBuilder cell = new StringBuilder();
            boolean quoted = false;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (quoted) {
                    if (c == '"' && i + 1 < s.length() && s.charAt(i + 1) == '"') { cell.append('"'); i++; }
                    else if (c == '"') quoted = false;
                    else cell.append(c);
                } else if (c == '"') quoted = true;
                else if (c == ',') { row.add(cell.toString()); cell.setLength(0); }
                else if (c == '\r') { /* part of CRLF */ }
                else if (c == '\n') { row.add(cell.toString()); cell.setLength(0); rows.add(row); row = new ArrayList<>(); }
                else cell.append(c);
            }
            if (cell.length() > 0 || !row.isEmpty()) { row.add(cell.toString()); rows.add(row); }
            return rows;
        }
    }
}
