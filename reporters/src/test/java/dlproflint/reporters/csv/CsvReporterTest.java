package dlproflint.reporters.csv;

import dlproflint.findings.Evidence;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import dlproflint.reporters.TestRuns;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CsvReporterTest {
    private static String render(LintRun run) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new CsvReporter().render(run, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void headerAndOneRowPerFindingInOrder() throws IOException {
        List<List<String>> rows = Rfc4180.parse(render(TestRuns.single("/data/p.sqlite")));
        assertEquals(CsvReporter.HEADER, rows.get(0));
        assertEquals(4, rows.size());
        for (List<String> r : rows) assertEquals(CsvReporter.HEADER.size(), r.size(), r.toString());
        assertEquals(List.of("dlprof/gpu-underutilized", "dlprof/amp-not-used", "dlprof/slow-kernel"),
                List.of(rows.get(1).get(1), rows.get(2).get(1), rows.get(3).get(1)));
        List<String> amp = rows.get(2);
        assertEquals("/data/p.sqlite", amp.get(0));
        assertEquals("warning", amp.get(2));
        assertEquals("precision", amp.get(3));
        assertEquals("op:CONV2D_1 (model/conv1)", amp.get(4));
        assertEquals("models/resnet.py:42", amp.get(8));
        assertEquals(32, amp.get(10).length());
    }

    @Test
    void recordsEndWithCrlfAndQuotesAreDoubled() throws IOException {
        String csv = render(TestRuns.single("/p.sqlite"));
        assertTrue(csv.startsWith(String.join(",", CsvReporter.HEADER) + "\r\n"));
        assertTrue(csv.contains("\"kernel:void at::native::<script>alert(\"\"x\"\")</script>"), csv);
        String slowProblem = Rfc4180.parse(csv).get(3).get(5);
        assertEquals("Kernel void at::native::<script>alert(\"x\")</script>_kernel<float, \"q\"&'a'>\\x1B[31m\\x00\\x07\\x09tab"
                + " takes 61.2% of GPU time.", slowProblem, "quotes and markup survive; NUL/ESC/BEL/TAB shown as \\xNN");
        assertFalse(csv.contains("\u0000") || csv.contains("\u001b"));
    }

    @Test
    void formulasAreNeutralisedEverywhere() throws IOException {
        for (String formula : List.of("=1+2", "+1+cmd", "-1+cmd", "-cmd|' /C calc'!A0", "@SUM(A1)", "\n=1+1", " =1", "\uFF1D1+1")) {
            var f = TestRuns.finding("amp-not-used", Severity.WARNING, formula, Subject.op(formula, formula), formula,
                    formula, Evidence.of("k", formula, "n", -2), null, formula);
            LintRun run = new LintRun("0.1.0", List.of(), TestRuns.rules(),
                    List.of(new ProfileResult(TestRuns.facts(formula), List.of(f), List.of())));
            List<String> row = Rfc4180.parse(render(run)).get(1);
            for (String cell : row) {
                assertFalse(cell.isEmpty() ? false : "=+-@\t\r".indexOf(cell.charAt(0)) >= 0,
                        "cell '" + cell + "' would be executed by a spreadsheet");
            }
            assertEquals("'" + formula, row.get(0), "profile column");
            assertEquals("'" + formula, row.get(5), "problem column");
            assertEquals("k='" + formula + "; n=-2", row.get(7), "each evidence value on its own; a number stays a number");
        }
    }

    @Test
    void neutraliseLeavesOrdinaryTextAlone() {
        assertEquals("-1", Csv.neutralise("-1"), "a negative number is a number, not a formula");
        assertEquals("-0.5E-3", Csv.neutralise("-0.5E-3"));
        assertEquals("'-1-1", Csv.neutralise("-1-1"));
        assertEquals("5 ops", Csv.neutralise("5 ops"));
        assertEquals("a=b", Csv.neutralise("a=b"));
    }

    /** Jackson quotes a field only where RFC 4180 must: a comma, a quote, a line end; not spaces or punctuation. */
    @Test
    void rowsAreQuotedOnlyWhereRfc4180Needs() throws IOException {
        java.io.StringWriter w = new java.io.StringWriter();
        com.fasterxml.jackson.dataformat.csv.CsvGenerator g = Csv.generator(w, "\r\n");
        Csv.row(g, java.util.Arrays.asList(null, "a,b", "plain", "two words; (x) #1 !", "say \"hi\"", "l1\nl2", " pad "));
        Csv.row(g, List.of("", "x"));
        g.flush();
        assertEquals(",\"a,b\",plain,two words; (x) #1 !,\"say \"\"hi\"\"\",\"l1\nl2\", pad \r\n,x\r\n", w.toString());
    }
}
