package dlproflint.reporters.dlprof;

import dlproflint.facts.Direction;
import dlproflint.facts.KernelInstance;
import dlproflint.findings.Finding;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17 item 6: the DLProf-format CSVs neutralise profile text the way the lint CSV does (one shared
 * {@code SafeText}): formula prefixes get a {@code '}, control and bidi characters are escaped. Numeric
 * cells stay numbers, so DLProf's own files (negative iteration numbers included) keep their bytes.
 */
class DlprofCsvNeutralisationTest {
    private static final String FORMULA = "=HYPERLINK(\"http://evil\")";

    @Test
    void iterationReportTextCellsAreNeutralisedAndNumbersAreNot() throws Exception {
        KernelInstance k = new KernelInstance("kernel", -1, "+OP_1", FORMULA, Direction.NA, "@type",
                "k\u001b[2J\u0000\u202Eevil", "-5", 0, 20, 5, 15, 4, true, 1, 2, 3, 4, 5, 6, "-cmd|x", "\tshape", "");
        String csv = Fixtures.csv(new IterationReport(GeneratedInstances.of(List.of(k)), Layout.PYTORCH));
        String row = csv.lines().toList().get(2);
        assertTrue(row.startsWith("-1,\"'+OP_1\",\"'" + FORMULA.replace("\"", "\"\"") + "\",,\"'@type\","), row);
        assertTrue(row.contains("\"k\\x1B[2J\\x00\\u202Eevil\""), "ESC, NUL and U+202E shown escaped: " + row);
        assertTrue(row.contains(",'-cmd|x,\"\\x09shape\""), "bare and quoted text cells alike; a tab is escaped (no longer a trigger): " + row);
        assertTrue(row.endsWith(",\"-5\""), "a text cell holding a plain number is left alone: " + row);
        assertNoRawControls(csv);
    }

    @Test
    void expertSystemsReportEscapesControlsInFindings() throws Exception {
        Finding f = new Finding("site/x", "site", "1.0.0", Severity.WARNING, "c", "Kernel \u001b[31mred\u0000 is slow",
                "=cmd()", java.util.Map.of(), Subject.profile(), null, null, "p.sqlite", "fp", null);
        String csv = Fixtures.csv(ExpertSystemsReport.of(List.of(f)));
        assertEquals("Expert Systems Feedback\nProblem,Recommendation\n\"Kernel \\x1B[31mred\\x00 is slow\",\"'=cmd()\"\n", csv);
    }

    /**
     * Issue 28: cells whose formula hides behind a line break or white space, or is written with the fullwidth and
     * small compatibility forms of the operators (U+FF1D is '=' to spreadsheets in East Asian locales), and names
     * carrying the other bidi and separator characters, in the DLProf-format CSV and JSON reports alike.
     */
    @Test
    void round3FormulaVariantsAndSeparatorsAreNeutralisedInCsvAndEscapedInJson() throws Exception {
        List<String> hostile = List.of("\uFF1D1+1", "\n=1+1", "  =1+1", "\r\n@SUM(A1)", "\uFF0Bcmd", "\uFF0D2+3", "\uFE62x",
                "\uFF20x", "\u3000=1", "a\u061Cb\u200Fc\u2028d\u2029e\u202Ef\u2066g\u0085h");
        for (String name : hostile) {
            KernelInstance k = new KernelInstance("kernel", 1, "OP_1", name, Direction.NA, "conv", name, "1", 0, 20, 5, 15, 4,
                    true, 1, 2, 3, 4, 5, 6, "", "", "");
            IterationReport report = new IterationReport(GeneratedInstances.of(List.of(k)), Layout.PYTORCH);
            String csv = Fixtures.csv(report);
            for (List<String> record : DlprofCsv.records(csv)) {
                for (String cell : record) {
                    assertFalse(dlproflint.reporters.SafeText.startsFormula(cell), "formula cell " + cell + " for " + name + ": " + csv);
                }
            }
            assertNoRawControls(csv);
            String json = Fixtures.render(report, DlprofFormat.JSON);
            assertNoRawControls(json);
            assertTrue(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).toString()
                    .contains(new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(name).replace("\"", "")),
                    "JSON keeps the exact name through its escapes: " + json);
        }
        assertTrue(dlproflint.reporters.SafeText.startsFormula("\uFF1D1+1"));
        assertFalse(dlproflint.reporters.SafeText.startsFormula("-12.5"), "an ASCII number stays a number");
        assertTrue(dlproflint.reporters.SafeText.startsFormula(" -12"), "behind a space it is not a plain number");
    }

    /** No raw control, bidi or separator character, nor DEL or C1; line feeds only as row ends. */
    static void assertNoRawControls(String text) {
        for (char c : text.toCharArray()) {
            assertFalse((c < 0x20 && c != '\n') || dlproflint.reporters.SafeText.needsEscape(c) && c != '\n',
                    "raw control character " + (int) c + " in " + text);
        }
    }
}
