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
        assertTrue(row.contains(",'-cmd|x,\"'\tshape\""), "bare and quoted text cells alike (a tab inside quotes is data): " + row);
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

    private static void assertNoRawControls(String csv) {
        for (char c : csv.toCharArray()) {
            assertFalse((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || c == '\u202E', "raw control character " + (int) c);
        }
    }
}
