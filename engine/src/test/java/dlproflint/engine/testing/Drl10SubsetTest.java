package dlproflint.engine.testing;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class Drl10SubsetTest {
    @Test
    void flagsInfixOperatorsBetweenPatternsHalfConstraintsAndPatternAnnotations() {
        String drl = """
                package x;
                rule "a && b" // names and comments do not count: && ||
                when
                    TimeBreakdown() && Marker()
                    OpFact(calls > 1 && < 5, name == "x || y")
                    KernelFact(usesTc) @watch(name)
                    GpuUsage(utilizationPct > 1 && @watch(x))
                then
                    if (a && b || c) { }   // Java in the consequence is fine
                end
                """;
        assertEquals(List.of(
                "line 4: '&&' between patterns is not DRL10 (write the conditions in one pattern, or use 'and'/'or')",
                "line 5: half-constraint after '&&' is not DRL10 (repeat the field: x > 1 && x < 5)",
                "line 6: annotation on a pattern is not DRL10",
                "line 7: annotation on a pattern is not DRL10"), Drl10Subset.violations(drl));
    }

    @Test
    void acceptsTheSubsetTheShippedRulesUse() {
        String drl = """
                rule "ok"
                when
                    RuleParam(rule == "p/r", name == "min", $min : value)
                    not OpFact(usesTc == true)
                    accumulate( $o : OpFact(tcEligible == true && usesTc == false || calls > 2);
                                $n : count($o); $n >= $min )
                    eval( $n > 0 && $min < 3 || !Helper.empty($n) )
                    OpFact(calls > 1, dataType != null && !unassociated())
                then
                end
                """;
        assertEquals(List.of(), Drl10Subset.violations(drl));
    }
}
