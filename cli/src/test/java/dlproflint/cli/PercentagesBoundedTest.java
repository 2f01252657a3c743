package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.testing.Corpus;
import dlproflint.testing.CsvRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No percentage the tool prints, for any profile of the corpus, is outside 0-100: every report format of
 * {@code lint} (text, JSON, SARIF, CSV, HTML, Markdown, GitLab Code Quality) and every DLProf report of {@code report --reports all} (CSV and
 * JSON), through the real command. Printed text is scanned for {@code N%}; JSON fields and DLProf CSV columns
 * named as percentages are checked as numbers. The one ratio printed with a percent name, the coefficient of
 * variation ({@code variationPct}), is a ratio that may pass 100 and is printed as a multiple then: it must be >= 0.
 */
class PercentagesBoundedTest {
    /** a number printed as a percentage: {@code 12.5%}, {@code 7 %}, {@code 73,820%}, {@code -3%} */
    private static final Pattern PRINTED = Pattern.compile("(?<![\\w.])(-?\\d[\\d,]*(?:\\.\\d+)?)\\s?%");
    /** JSON field names that hold percentages */
    private static final Pattern PERCENT_FIELD = Pattern.compile("(?i).*(pct|percent|%).*");
    private static final Set<String> RATIOS = Set.of("variationPct", "proposedVariationPct");
    private static final int SARIF_RUNS = 16;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void everyPrintedPercentageOfEveryCorpusProfileIsBetween0And100() throws IOException {
        List<String> profiles = Corpus.profiles();
        assertTrue(profiles.size() > 40, "the whole corpus: " + profiles.size());
        Files.writeString(dir.resolve("train.py"), "pass\n");
        CliHarness cli = new CliHarness(dir);
        List<String> violations = new ArrayList<>();
        // lint: every format, GitHub's SARIF run limit respected by linting in groups
        for (int from = 0; from < profiles.size(); from += SARIF_RUNS) {
            List<String> args = new ArrayList<>();
            for (String rel : profiles.subList(from, Math.min(profiles.size(), from + SARIF_RUNS))) {
                args.add(Corpus.file(rel).toString());
            }
            String g = "group" + from;
            args.addAll(List.of("--no-config", "--fail-on", "none", "--sarif-anchor", "train.py",
                    "--report", "text=" + g + ".txt", "--report", "json=" + g + ".json", "--report", "sarif=" + g + ".sarif",
                    "--report", "csv=" + g + ".csv", "--report", "html=" + g + ".html", "--report", "markdown=" + g + ".md",
                    "--report", "codequality=" + g + ".codequality.json"));
            CliHarness.Result r = cli.run(args.toArray(String[]::new));
            assertTrue(r.code() == 0 || r.code() == 3, r::toString); // 3: a corpus file that is no profile
            for (String ext : List.of("txt", "json", "sarif", "csv", "html", "md", "codequality.json")) {
                Path out = dir.resolve(g + "." + ext);
                assertTrue(Files.exists(out), out + " written");
                printed(out, violations);
                if (ext.endsWith("json") || ext.equals("sarif")) fields(JSON.readTree(out.toFile()), out + ":", violations);
            }
        }
        // report --reports all: DLProf's CSV and JSON reports of every readable profile
        int reported = 0;
        for (String rel : profiles) {
            Path outDir = dir.resolve("dlprof").resolve(rel.replace('/', '~'));
            CliHarness.Result r = cli.run("report", Corpus.file(rel).toString(), "--reports", "all", "--formats", "csv,json",
                    "--output-path", outDir.toString(), "--no-config");
            if (r.code() == 3) continue; // not a profile (the lint above said so too)
            assertEquals(0, r.code(), rel + ": " + r);
            reported++;
            try (Stream<Path> files = Files.list(outDir)) {
                for (Path f : files.toList()) {
                    printed(f, violations);
                    if (f.toString().endsWith(".json")) fields(JSON.readTree(f.toFile()), f + ":", violations);
                    else dlprofCsvColumns(f, violations);
                }
            }
        }
        assertTrue(reported > 40, "DLProf reports written for " + reported + " profiles");
        assertEquals(List.of(), violations, "percentages outside 0-100");
    }

    private static void printed(Path file, List<String> violations) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        Matcher m = PRINTED.matcher(text);
        while (m.find()) {
            double v = Double.parseDouble(m.group(1).replace(",", ""));
            if (v < 0 || v > 100) {
                int s = Math.max(0, m.start() - 80);
                violations.add(file.getFileName() + ": " + text.substring(s, Math.min(text.length(), m.end() + 20)).replaceAll("\\s+", " "));
            }
        }
    }

    private static void fields(JsonNode node, String path, List<String> violations) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                if (v.isNumber() && PERCENT_FIELD.matcher(e.getKey()).matches()) {
                    double d = v.asDouble();
                    boolean ratio = RATIOS.contains(e.getKey());
                    // -1 is the documented "none" of a proposed window / unknown memory share
                    if (d < 0 && d != -1 || !ratio && d > 100) violations.add(path + e.getKey() + " = " + d);
                }
                fields(v, path + e.getKey() + ".", violations);
            }
        } else if (node.isArray()) {
            for (JsonNode c : node) fields(c, path, violations);
        }
    }

    /** DLProf CSV sections: a header row names percentage columns; their cells are 0-100. */
    private static void dlprofCsvColumns(Path file, List<String> violations) throws IOException {
        List<Integer> percentCols = List.of();
        for (List<String> row : CsvRecords.read(file)) {
            if (row.size() <= 1) {
                // a title line, a blank line or a key-value line: key-value percentages are scanned as text
                if (row.size() == 2) check(file, row.get(0), row.get(1), violations);
                percentCols = List.of();
                continue;
            }
            if (row.stream().anyMatch(c -> c.contains("%"))) {
                List<Integer> cols = new ArrayList<>();
                for (int i = 0; i < row.size(); i++) if (row.get(i).contains("%")) cols.add(i);
                percentCols = cols;
                if (row.size() == 2 && row.get(0).contains("%")) check(file, row.get(0), row.get(1), violations);
                continue;
            }
            if (row.size() == 2 && row.get(0).contains("%")) check(file, row.get(0), row.get(1), violations);
            for (int c : percentCols) if (c < row.size()) check(file, "column " + c, row.get(c), violations);
        }
    }

    private static void check(Path file, String what, String cell, List<String> violations) {
        if (!what.contains("%") && !what.startsWith("column")) return;
        try {
            double v = Double.parseDouble(cell.trim());
            if (v < 0 || v > 100) violations.add(file.getFileName() + " " + what + " = " + cell);
        } catch (NumberFormatException e) {
            // not a number (a header repeated, an empty cell)
        }
    }
}
