package dlproflint.findings;

import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;

class UnitsTest {
    @Test
    void durationsShareAndSizesReadTheSameInEveryLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertEquals("850 ns", Units.duration(850));
            assertEquals("573 µs", Units.duration(572_668));
            assertEquals("12.3 ms", Units.duration(12_345_678));
            assertEquals("2.84 s", Units.duration(2_840_562_182L));
            assertEquals("79.1%", Units.pct(79.0912));
            assertEquals("0.0%", Units.pct(0));
            assertEquals("0.0%", Units.pct(0.0204), "DLProf's one decimal in messages");
            assertEquals("0.02%", Units.share(0.0204), "dashboards: near zero is not zero");
            assertEquals("<0.01%", Units.share(0.004));
            assertEquals("n/a", Units.pct(Double.NaN));
            assertEquals("259,160 bytes", Units.bytes(259_160));
            assertEquals("192.7 MB", Units.bytes(192_675_840));
            assertEquals("1.28 GB", Units.bytes(1_280_000_000L));
            assertEquals("80.0 GiB", Units.memory(85_899_345_920L));
            assertEquals("1,234,567", Units.count(1_234_567));
            assertEquals("10", Units.num(10.0));
            assertEquals("2.50", Units.num(2.5));
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void oneLineCollapsesBreaksReplacesControlsAndBoundsLength() {
        assertEquals("a b ?[31mred", OneLine.of("a\r\n  b \u001b[31mred"));
        assertEquals(OneLine.MAX + 3, OneLine.of("x".repeat(10_000)).length());
        assertEquals("IllegalStateException", OneLine.of(new IllegalStateException()));
    }
}
