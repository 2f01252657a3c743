package dlproflint.job;

import dlproflint.findings.Finding;
import dlproflint.findings.FindingOrder;
import dlproflint.findings.Impact;
import dlproflint.findings.RankSet;
import dlproflint.findings.RankSummary;
import dlproflint.findings.Severity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Folds the ranks' own findings into one job finding per rule and subject ("amp-not-used on 64 of 64 ranks")
 * instead of one copy per rank. The lowest affected rank's finding gives the text and numbers (said so in the
 * message); the severity is the most severe rank's; the cost is the mean over the affected ranks; the affected
 * ranks are listed compactly in the message and in the evidence ({@code ranks}, {@code rankCount}). Identity
 * (the fingerprint: rule and subject) is the per-rank finding's, so baselines and suppressions written for
 * single profiles keep matching.
 */
public final class FindingFolder {
    private FindingFolder() {
    }

    private static final class Group {
        final Finding first;
        final int firstRank;
        final List<Integer> ranks = new ArrayList<>();
        final List<Impact> impacts = new ArrayList<>();
        Severity severity;

        Group(Finding first, int rank) {
            this.first = first;
            this.firstRank = rank;
            this.severity = first.severity();
        }
    }

    /**
     * @param ranks     kept ranks by rank (ascending)
     * @param ranksRead how many ranks were read (the "of N")
     */
    public static List<Finding> fold(Map<Integer, RankSummary> ranks, int ranksRead) {
        Map<String, Group> groups = new LinkedHashMap<>();
        for (Map.Entry<Integer, RankSummary> e : ranks.entrySet()) {
            for (Finding f : e.getValue().findings()) {
                String key = f.ruleId() + "\n" + (f.subject() == null ? "" : f.subject().ref());
                Group g = groups.computeIfAbsent(key, k -> new Group(f, e.getKey()));
                if (g.ranks.contains(e.getKey())) continue; // one rank, one vote
                g.ranks.add(e.getKey());
                if (f.impact() != null) g.impacts.add(f.impact());
                if (f.severity() != null && (g.severity == null || f.severity().atLeast(g.severity))) g.severity = f.severity();
            }
        }
        List<Finding> out = new ArrayList<>();
        for (Group g : groups.values()) out.add(folded(g, ranksRead));
        out.sort(FindingOrder.COMPARATOR);
        return out;
    }

    private static Finding folded(Group g, int ranksRead) {
        Finding f = g.first;
        String ranks = RankSet.compact(g.ranks);
        int n = g.ranks.size();
        String where = n == 1 ? " - on rank " + ranks + " of " + ranksRead
                : " - on " + n + " of " + ranksRead + " ranks (" + ranks + "); figures of rank " + g.firstRank;
        Map<String, Object> evidence = new LinkedHashMap<>(f.evidence() == null ? Map.of() : f.evidence());
        evidence.put("ranks", ranks);
        evidence.put("rankCount", n);
        evidence.put("ranksRead", ranksRead);
        evidence.put("figuresOfRank", g.firstRank);
        return new Finding(f.ruleId(), f.packId(), f.packVersion(), g.severity, f.category(),
                (f.problem() == null ? "" : f.problem()) + where, f.recommendation(),
                java.util.Collections.unmodifiableMap(evidence), f.subject(), f.location(), f.helpUri(), f.profilePath(),
                f.fingerprint(), meanImpact(f.impact(), g.impacts), f.messageId(), f.data());
    }

    /** The mean cost over the affected ranks, on the basis of the first rank's estimate. */
    private static Impact meanImpact(Impact first, List<Impact> all) {
        if (first == null) return null;
        double lost = 0;
        double saving = 0;
        double period = 0;
        int n = 0;
        for (Impact i : all) {
            if (i.basis() != first.basis()) continue;
            lost += i.lostNs();
            saving += i.savingNs();
            period += i.periodNs();
            n++;
        }
        return new Impact(lost / n, first.basis(), period / n, saving / n, first.model());
    }
}
