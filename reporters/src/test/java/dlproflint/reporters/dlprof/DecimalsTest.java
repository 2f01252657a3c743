package dlproflint.reporters.dlprof;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DecimalsTest {
    @Test
    void oneDecimalLikeDlprof() {
        assertEquals("2840562182.0", Decimals.oneDecimal(2840562182.0));
        assertEquals("10575.5", Decimals.oneDecimal(21151 / 2.0));
        assertEquals("10686.3", Decimals.oneDecimal(32059 / 3.0));
        assertEquals("0.0", Decimals.oneDecimal(0));
        assertEquals("0.0", Decimals.oneDecimal(-0.04));
        assertEquals("100000000000000000000.0", Decimals.oneDecimal(1e20));
    }

    @Test
    void roundsHalfEvenOnTheExactBinaryValueAsPythonRound() {
        assertEquals("2.2", Decimals.oneDecimal(2.25));   // exactly representable tie: to even
        assertEquals("2.4", Decimals.oneDecimal(2.35));   // 2.35000000000000008882 is above the tie
        assertEquals("0.1", Decimals.oneDecimal(0.05));   // 0.05000000000000000277
    }
}
