package dlproflint.extract.common;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * DLProf's flattened time breakdown by a sweep over several start-sorted interval streams: every instant of
 * the window is charged to the highest-priority category active at that instant (category 0 highest), or to
 * "other" when none is. Memory is bounded by the number of simultaneously open intervals.
 * Also reports, for given category masks, the time during which any category of the mask is active.
 */
public final class PriorityTimeline {
    private final int categories;
    private final long windowStart;
    private final long windowEnd;
    private final int[] masks;

    public PriorityTimeline(int categories, long windowStart, long windowEnd, int... masks) {
        this.categories = categories;
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
        this.masks = masks;
    }

    /** Result: {@code byCategory[c]} time charged to c, {@code other}, {@code masked[m]} union time for masks[m]. */
    public record Result(long[] byCategory, long other, long[] masked, long window) {
        public double pct(int c) {
            return dlproflint.facts.Percent.of(byCategory[c], window); // each instant charged once
        }

        public double otherPct() {
            return dlproflint.facts.Percent.of(other, window);
        }
    }

    public Result run(List<IntervalSource> sources) throws Exception {
        long[] by = new long[categories];
        long other = 0;
        long[] masked = new long[masks.length];
        int[] active = new int[categories];
        PriorityQueue<long[]> ends = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        List<IntervalSource> live = new ArrayList<>();
        for (IntervalSource s : sources) if (s.next()) live.add(s);
        long t = windowStart;
        while (true) {
            IntervalSource nextSrc = null;
            long nextStart = Long.MAX_VALUE;
            for (IntervalSource s : live) {
                if (s.start() < nextStart) {
                    nextStart = s.start();
                    nextSrc = s;
                }
            }
            long nextEnd = ends.isEmpty() ? Long.MAX_VALUE : ends.peek()[0];
            long next = Math.min(nextStart, nextEnd);
            if (next == Long.MAX_VALUE || next >= windowEnd) {
                next = windowEnd;
            }
            // charge [t, next) clipped to the window
            long a = Math.max(t, windowStart);
            long b = Math.min(next, windowEnd);
            if (b > a) {
                int top = -1;
                int mask = 0;
                for (int c = 0; c < categories; c++) {
                    if (active[c] > 0) {
                        if (top < 0) top = c;
                        mask |= 1 << c;
                    }
                }
                if (top < 0) other += b - a;
                else by[top] += b - a;
                for (int m = 0; m < masks.length; m++) if ((mask & masks[m]) != 0) masked[m] += b - a;
            }
            if (next > t) t = next;
            if (next >= windowEnd && (nextStart >= windowEnd) ) break;
            if (nextEnd <= nextStart) {
                long[] e = ends.poll();
                active[(int) e[1]]--;
            } else {
                long s = nextSrc.start();
                long e = Math.max(s, nextSrc.end());
                int c = nextSrc.category();
                if (c >= 0 && c < categories && e > s) {
                    active[c]++;
                    ends.add(new long[] {e, c});
                }
                if (!nextSrc.next()) live.remove(nextSrc);
            }
        }
        return new Result(by, other, masked, Math.max(0, windowEnd - windowStart));
    }
}
