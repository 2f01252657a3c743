package dlproflint.findings;

import java.util.Collection;
import java.util.TreeSet;

/** Rank numbers written compactly, as people write them ({@code 0-3,7,9-11}): in job findings, reports and messages. */
public final class RankSet {
    private RankSet() {
    }

    public static String compact(Collection<Integer> ranks) {
        return runs(ranks, ',');
    }

    /** Distinct integers in ascending runs, {@code a-b} for a run and {@code a} alone, joined by {@code separator}. */
    public static String runs(Collection<Integer> ranks, char separator) {
        StringBuilder sb = new StringBuilder();
        Integer runStart = null;
        Integer prev = null;
        for (int r : new TreeSet<>(ranks)) {
            if (prev != null && r == prev + 1) {
                prev = r;
                continue;
            }
            if (runStart != null) append(sb, runStart, prev, separator);
            runStart = r;
            prev = r;
        }
        if (runStart != null) append(sb, runStart, prev, separator);
        return sb.toString();
    }

    private static void append(StringBuilder sb, int from, int to, char separator) {
        if (sb.length() > 0) sb.append(separator);
        sb.append(from);
        if (to > from) sb.append('-').append(to);
    }

    /** At most this many runs are written by {@link #missing}; the rest is counted ("and 1200 more ranks"). */
    public static final int MAX_RUNS = 64;

    /**
     * Ranks 0..worldSize-1 not in {@code present}, written compactly; time and memory grow with the ranks present,
     * never with the world size (a profile may claim 2^31-1 ranks), and at most {@link #MAX_RUNS} runs are listed.
     */
    public static String missing(int worldSize, Collection<Integer> present) {
        StringBuilder sb = new StringBuilder();
        int runs = 0;
        long unlisted = 0;
        long next = 0; // the first rank not yet accounted for
        java.util.Iterator<Integer> it = new TreeSet<>(present).iterator();
        while (next < worldSize) {
            long upTo = worldSize; // the gap [next, upTo) is missing
            Integer p = null;
            while (it.hasNext()) {
                p = it.next();
                if (p >= next) break;
                p = null;
            }
            if (p != null) upTo = Math.min(p, worldSize);
            if (upTo > next) {
                if (runs < MAX_RUNS) {
                    append(sb, (int) next, (int) (upTo - 1), ',');
                    runs++;
                } else {
                    unlisted += upTo - next;
                }
            }
            if (p == null) break;
            next = (long) p + 1;
        }
        if (unlisted > 0) sb.append(" and ").append(unlisted).append(" more");
        return sb.toString();
    }
}
