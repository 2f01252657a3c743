package dlproflint.extract.kineto;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MicrosTextTest {
    @Test
    void integerMicrosecondsBecomeNanoseconds() {
        assertEquals(1_606_910_596_297_023_000L, MicrosText.toNanos("1606910596297023"));
    }

    @Test
    void threeFractionalDigitsAreExactNanoseconds() {
        // 16 significant digits: a double would be off by up to 1 ns here
        assertEquals(4_458_676_522_690_655L, MicrosText.toNanos("4458676522690.655"));
        assertEquals(1_500L, MicrosText.toNanos("1.5"));
        assertEquals(1_005L, MicrosText.toNanos("1.005"));
    }

    @Test
    void extraDigitsRoundHalfUp() {
        assertEquals(1_001L, MicrosText.toNanos("1.0005"));
        assertEquals(1_000L, MicrosText.toNanos("1.0004"));
    }

    @Test
    void negativeAndExponentForms() {
        assertEquals(-2_500L, MicrosText.toNanos("-2.5"));
        assertEquals(1_500_000L, MicrosText.toNanos("1.5e3"));
    }

    @Test
    void garbageIsRejected() {
        assertThrows(NumberFormatException.class, () -> MicrosText.toNanos("12a"));
        assertThrows(NumberFormatException.class, () -> MicrosText.toNanos(""));
        assertThrows(NumberFormatException.class, () -> MicrosText.toNanos("."));
    }

    @Test
    void idsAboveLongMaxKeepTheirLowBits() {
        assertEquals(new java.math.BigInteger("10159970886766084423").longValue(), TraceParser.parseId("10159970886766084423"));
        assertEquals(42L, TraceParser.parseId("42"));
    }
}
