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

    /** Ranks 0..worldSize-1 not in {@code present}, written compactly. */
    public static String missing(int worldSize, Collection<Integer> present) {
        TreeSet<Integer> out = new TreeSet<>();
        for (int r = 0; r < worldSize; r++) if (!present.contains(r)) out.add(r);
        return compact(out);
    }
}
