package dlproflint.reporters.html;

import dlproflint.findings.Units;
import dlproflint.reporters.ReportOptions;
import dlproflint.reporters.Reporters;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextAndLinksTest {

    @Test
    void controlAndBidiCharactersBecomeVisibleEscapes() {
        assertEquals("a\\x00b\\x07c\\x1B[0m\\x7F\\x85", Text.clean("a\u0000b\u0007c\u001b[0m\u007f\u0085"));
        assertEquals("abc\\u202Egnp.exe", Text.clean("abc\u202Egnp.exe"));
        assertEquals("tab\tand\nnewline stay", Text.clean("tab\tand\nnewline stay"));
        assertEquals("lone \uFFFD surrogate", Text.clean("lone \uD800 surrogate"));
        assertEquals("emoji \uD83D\uDE80 kept", Text.clean("emoji \uD83D\uDE80 kept"));
        assertNull(Text.clean(null));
    }

    @Test
    void longNamesAreCut() {
        String huge = "x".repeat(10_000_000);
        String c = Text.clean(huge);
        assertEquals(Text.MAX_CHARS, c.length());
        assertTrue(c.endsWith("\u2026"));
        assertEquals(Text.CELL_CHARS, Text.cell(huge).length());
        assertEquals("short", Text.cell("short"));
    }

    @Test
    void onlyAbsoluteHttpUrlsBecomeLinks() {
        assertEquals("https://example.org/a?b=c", Links.safeHref("https://example.org/a?b=c"));
        assertNull(Links.safeHref("javascript:alert(1)"));
        assertNull(Links.safeHref("JaVaScRiPt:alert(1)"));
        assertNull(Links.safeHref("data:text/html,<script>alert(1)</script>"));
        assertNull(Links.safeHref("//evil.example/x"));
        assertNull(Links.safeHref("https:///nohost"));
        assertNull(Links.safeHref("file:///etc/passwd"));
    }

    @Test
    void urlsInTextAreSplitIntoLinkSegments() {
        List<Links.Segment> s = Links.segments("See https://docs.nvidia.com/x.html. Then javascript:alert(1) too");
        assertEquals(3, s.size());
        assertEquals(new Links.Segment("See ", null), s.get(0));
        assertEquals(new Links.Segment("https://docs.nvidia.com/x.html", "https://docs.nvidia.com/x.html"), s.get(1));
        assertEquals(". Then javascript:alert(1) too", s.get(2).text());
        assertNull(s.get(2).href());
    }

    @Test
    void formatsNumbersWithoutLocale() {
        assertEquals("850 ns", Units.duration(850));
        assertEquals("12 µs", Units.duration(12_345));
        assertEquals("4.6 ms", Units.duration(4_560_000));
        assertEquals("13.20 s", Units.duration(13_200_000_000.0));
        assertEquals("87.5%", Units.share(87.5));
        assertEquals("0.02%", Units.share(0.0204));
        assertEquals("<0.01%", Units.share(0.004));
        assertEquals("0.0%", Units.share(0));
        assertEquals("1,234,567", Units.count(1_234_567));
        assertEquals("80.0 GiB", Units.memory(85_899_345_920L));
        assertEquals("1.5", Units.number(1.5));
    }

    @Test
    void theRegistryFindsTheHtmlFormat() {
        assertInstanceOf(HtmlReporter.class, Reporters.create("html", ReportOptions.PLAIN));
        assertTrue(Reporters.formats().contains("html"));
    }
}
