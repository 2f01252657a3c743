package dlproflint.reporters.html.svg;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SvgChartsTest {

    private static int count(String s, String regex) {
        Matcher m = Pattern.compile(regex).matcher(s);
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    @Test
    void escapesTextAndAttributes() {
        String s = new Svg().open("g", "data-x", "\"><script>").title("a<b>&'\"\u0007").close("g").toString();
        assertEquals("<g data-x=\"&quot;&gt;&lt;script&gt;\"><title>a&lt;b&gt;&amp;&#39;&quot;\\x07</title></g>", s);
    }

    @Test
    void barChartHasOneBarAndTooltipPerValue() {
        String svg = SvgBarChart.render("GPU utilization", List.of(
                new Part("GPU 0", 50, Palette.BUSY, "GPU 0: 50 %"),
                new Part("GPU 1", 100, Palette.BUSY, "GPU 1: 100 %"),
                new Part("GPU <2>", 0, Palette.BUSY, "GPU 2: idle")), 100, List.of("50 %", "100 %", "0 %"), 520);
        assertTrue(svg.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\""));
        assertEquals(3, count(svg, "<rect [^>]*fill=\"" + Palette.IDLE + "\""), "tracks");
        assertEquals(2, count(svg, "<rect [^>]*fill=\"" + Palette.BUSY + "\""), "no bar for 0");
        assertTrue(svg.contains("<title>GPU 1: 100 %</title>"));
        assertTrue(svg.contains("GPU &lt;2&gt;"));
        // the 100 % bar spans the plot (520 - 70 label - 80 value = 370), the 50 % bar half of it
        assertTrue(svg.contains("width=\"370\" height=\"16\" fill=\"" + Palette.BUSY));
        assertTrue(svg.contains("width=\"185\" height=\"16\" fill=\"" + Palette.BUSY));
        assertFalse(svg.contains("style="));
    }

    @Test
    void stackedBarSegmentsAreProportional() {
        String svg = SvgStackedBar.render("split", List.of(new Part("a", 1, "#111111", "a"),
                new Part("b", 3, "#222222", "b"), new Part("c", 0, "#333333", "c")), 400);
        assertTrue(svg.contains("x=\"0\" y=\"0\" width=\"100\" height=\"28\" fill=\"#111111\""), svg);
        assertTrue(svg.contains("x=\"100\" y=\"0\" width=\"300\" height=\"28\" fill=\"#222222\""), svg);
        assertFalse(svg.contains("#333333"), "empty segment not drawn");
        assertTrue(SvgStackedBar.render("none", List.of(new Part("a", 0, "#111111", "a")), 400).contains("no data"));
    }

    @Test
    void stackedBarsMarkTheHighlightedRunAndScaleToTheTallestColumn() {
        List<SvgStackedBars.Column> cols = List.of(
                new SvgStackedBars.Column("0", new double[]{10, 10, 0}, 40, false, "it 0"),
                new SvgStackedBars.Column("1", new double[]{20, 20, 5}, 50, true, "it 1"),
                new SvgStackedBars.Column("2", new double[]{20, 20, 5}, 100, true, "it 2"),
                new SvgStackedBars.Column("3", new double[]{5, 5, 5}, 30, false, "it 3"));
        String svg = SvgStackedBars.render("iters", "desc", List.of("#aa0000", "#00aa00", "#0000aa"), cols,
                "aggregated 1-2", v -> (long) v + " ns", 600, 300);
        assertEquals(1, count(svg, "class=\"band\""), "one band for the contiguous run");
        assertTrue(svg.contains("<title>aggregated 1-2</title>"));
        assertEquals(4, count(svg, "<title>it \\d</title>"), "one tooltip per column");
        assertEquals(4, count(svg, "stroke-width=\"2\""), "one duration tick per column");
        assertTrue(svg.contains(">100 ns</text>"), "axis reaches the tallest marker");
        assertEquals(3, count(svg, "fill=\"#0000aa\""), "zero segments are skipped");
        assertEquals(10.0, SvgStackedBars.niceStep(7.3));
        assertEquals(0.5, SvgStackedBars.niceStep(0.31));
        assertEquals(2000.0, SvgStackedBars.niceStep(1500));
    }
}
