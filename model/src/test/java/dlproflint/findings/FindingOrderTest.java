package dlproflint.findings;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FindingOrderTest {
    private static Finding f(String rule, Severity s, Impact impact) {
        return new Finding(rule, "p", "1", s, "c", "problem", "fix", Map.of(), Subject.profile(), null, null, "x",
                rule, impact);
    }

    @Test
    void severityThenWhatAFixRecoversThenRuleId() {
        Finding errorBig = f("p/b", Severity.ERROR, Impact.perStep(40e6, 100e6, 40e6, "m"));
        Finding errorSmall = f("p/a", Severity.ERROR, Impact.perStep(60e6, 100e6, 21e6, "m")); // spends more, recovers less
        Finding errorNone = f("p/0", Severity.ERROR, null);
        Finding warnTie1 = f("p/x", Severity.WARNING, Impact.perStep(9e6, 100e6, 8e6, "m"));
        Finding warnTie2 = f("p/y", Severity.WARNING, Impact.perStep(8e6, 100e6, 8e6, "m"));
        Finding note = f("p/n", Severity.NOTE, Impact.perStep(99e6, 100e6, 1e6, "m"));
        List<Finding> sorted = FindingOrder.sorted(List.of(note, errorNone, warnTie2, errorSmall, warnTie1, errorBig));
        assertEquals(List.of(errorBig, errorSmall, errorNone, warnTie1, warnTie2, note), sorted,
                "within a severity the larger saving first, the share lost breaks ties, unmeasured findings last");
        // the SARIF rank agrees with the order within each severity
        assertEquals(40, errorBig.impact().rank());
        assertEquals(21, errorSmall.impact().rank());
    }
}
