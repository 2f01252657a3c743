package dlproflint.findings;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SeverityThresholdsTest {
    private static Impact share(double pct) {
        return Impact.perStep(pct * 1e6, 100e6, pct * 1e6, "m");
    }

    @Test
    void defaultsRateTheShareOfTheStepLost() {
        SeverityThresholds d = SeverityThresholds.DEFAULT;
        assertEquals(Severity.ERROR, d.severityOf(share(20)), "from 20% of the step");
        assertEquals(Severity.ERROR, d.severityOf(share(85)));
        assertEquals(Severity.WARNING, d.severityOf(share(19.99)));
        assertEquals(Severity.WARNING, d.severityOf(share(5)));
        assertEquals(Severity.NOTE, d.severityOf(share(4.99)));
        assertEquals(Severity.NOTE, d.severityOf(share(0)));
    }

    @Test
    void whatAFixRecoversDecidesNotWhatIsSpent() {
        // 30% of the step spent, of which a fix recovers 3%: a note, as it is ordered
        assertEquals(Severity.NOTE, SeverityThresholds.DEFAULT.severityOf(Impact.perStep(30e6, 100e6, 3e6, "m")));
        assertEquals(Severity.ERROR, SeverityThresholds.DEFAULT.severityOf(Impact.perStep(30e6, 100e6, 25e6, "m")));
    }

    @Test
    void thresholdsAreSharesWithTheWarningAtMostTheError() {
        assertEquals(Severity.ERROR, new SeverityThresholds(10, 10).severityOf(share(10)), "equal thresholds: no warnings");
        assertEquals(Severity.NOTE, new SeverityThresholds(10, 10).severityOf(share(9.9)));
        assertEquals(Severity.ERROR, new SeverityThresholds(0, 0).severityOf(share(0)), "0 makes every measured finding an error");
        assertEquals(Severity.NOTE, new SeverityThresholds(100, 100).severityOf(share(99.9)));
        String msg = assertThrows(IllegalArgumentException.class, () -> new SeverityThresholds(20, 30)).getMessage();
        assertEquals("the warning threshold (30%) is above the error threshold (20%)", msg);
        msg = assertThrows(IllegalArgumentException.class, () -> new SeverityThresholds(120, 5)).getMessage();
        assertEquals("the error threshold must be a share between 0 and 100, not 120", msg);
        assertThrows(IllegalArgumentException.class, () -> new SeverityThresholds(20, -1));
        assertThrows(IllegalArgumentException.class, () -> new SeverityThresholds(Double.NaN, 5));
        assertTrue(SeverityThresholds.DEFAULT.describe().startsWith("error ≥ 20%, warning ≥ 5%"));
    }
}
