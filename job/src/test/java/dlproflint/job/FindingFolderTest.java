package dlproflint.job;

import dlproflint.findings.Evidence;
import dlproflint.findings.Finding;
import dlproflint.findings.Fingerprint;
import dlproflint.findings.Impact;
import dlproflint.findings.RankSummary;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FindingFolderTest {
    private static Finding amp(String file, Severity s, double lostNs) {
        Subject sub = Subject.profile();
        return new Finding("dlprof/amp-not-used", "dlprof", "1.0.0", s, "precision", "AMP is not used",
                "Enable AMP", Evidence.of("tcPct", 0.0), sub, null, null, file, Fingerprint.of("dlprof/amp-not-used", sub),
                Impact.perStep(lostNs, 100, lostNs / 2, "fp32 math"));
    }

    @Test
    void oneFindingPerRuleAndSubjectWithTheRanksListed() {
        Map<Integer, RankSummary> ranks = new TreeMap<>();
        for (int r = 0; r < 64; r++) {
            List<Finding> f = r == 7 ? List.of(amp("r7", Severity.ERROR, 30)) : r < 60 ? List.of(amp("r" + r, Severity.WARNING, 10)) : List.of();
            ranks.put(r, Ranks.rank("r" + r, Ranks.info(r, 64), new int[] {1}, new long[] {1}, f));
        }
        List<Finding> folded = FindingFolder.fold(ranks, 64);
        assertEquals(1, folded.size());
        Finding f = folded.get(0);
        assertEquals("AMP is not used - on 60 of 64 ranks (0-59); figures of rank 0", f.problem());
        assertEquals("0-59", f.evidence().get("ranks"));
        assertEquals(60, f.evidence().get("rankCount"));
        assertEquals(Severity.ERROR, f.severity(), "as severe as the worst rank");
        assertEquals((59 * 10 + 30) / 60.0, f.impact().lostNs(), 1e-9, "the mean cost over the affected ranks");
        assertEquals(Fingerprint.of("dlprof/amp-not-used", Subject.profile()), f.fingerprint(), "identity unchanged");
        assertEquals("r0", f.profilePath());
    }

    @Test
    void aFindingOfOneRankSaysWhichOne() {
        Map<Integer, RankSummary> ranks = new TreeMap<>();
        ranks.put(0, Ranks.rank("r0", Ranks.info(0, 2), new int[] {1}, new long[] {1}, List.of()));
        ranks.put(1, Ranks.rank("r1", Ranks.info(1, 2), new int[] {1}, new long[] {1}, List.of(amp("r1", Severity.NOTE, 1))));
        Finding f = FindingFolder.fold(ranks, 2).get(0);
        assertTrue(f.problem().endsWith(" - on rank 1 of 2"), f.problem());
    }
}
