package dlproflint.extract.common;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The dominant call site of one op or API, counted in bounded memory while a reader streams: at most
 * {@link #CAP} distinct sites are tracked; a site first seen after that is not counted, which only matters for an
 * op called from more places than that, where the sites already tracked are the early, usually hot, ones.
 *
 * @param <K> how a site is identified (a stack text, a frame's name index, an nsys callchain id)
 */
public final class SiteVotes<K> {
    public static final int CAP = 16;

    private final Map<K, long[]> weights = new LinkedHashMap<>();

    /** Counts one call from {@code site} with its weight (1 per call, or its duration). */
    public void add(K site, long weight) {
        long[] w = weights.get(site);
        if (w == null) {
            if (weights.size() >= CAP) return;
            weights.put(site, w = new long[1]);
        }
        w[0] += Math.max(1, weight);
    }

    /** The site with the largest weight (the first seen among equals), or null when none was counted. */
    public K best() {
        K best = null;
        long max = -1;
        for (Map.Entry<K, long[]> e : weights.entrySet()) {
            if (e.getValue()[0] > max) {
                max = e.getValue()[0];
                best = e.getKey();
            }
        }
        return best;
    }

    public boolean isEmpty() {
        return weights.isEmpty();
    }
}
