package dlproflint.extract.common;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * DLProf's flattened time breakdown by a sweep over intervals in start order: every instant of the window
 * is charged to the highest-priority category active at that instant (category 0 highest), or to "other"
 * when none is. Memory is bounded by the number of simultaneously open intervals.
 * Also reports, for given category masks, the time during which any category of the mask is active.
 * Intervals are pushed ({@link #offer}, in non-decreasing start order, then {@link #finish}), so one sweep
 * over a profile's tables can feed several timelines; {@link #run} pulls them from sorted sources instead.
 */
public final class PriorityTimeline {
    private final int categories;
    private final long windowStart;
    private final long windowEnd;
    private final int[] masks;
    private final long[] by;
    private final long[] masked;
    private final int[] active;
    private long other;
    private long t;
    private boolean done;
    /** open intervals: a binary min-heap of end times with their categories */
    private long[] ends = new long[16];
    private int[] endCategories = new int[16];
    private int open;
    /** per-window accounting ({@link #perWindow}): window k is [bounds[k], bounds[k + 1]) */
    private long[] bounds;
    private long[][] byWindow;
    private int window;

    public PriorityTimeline(int categories, long windowStart, long windowEnd, int... masks) {
        this.categories = categories;
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
        this.masks = masks;
        this.by = new long[categories];
        this.masked = new long[masks.length];
        this.active = new int[categories];
        this.t = windowStart;
    }

    private PriorityTimeline(PriorityTimeline o) {
        this.categories = o.categories;
        this.windowStart = o.windowStart;
        this.windowEnd = o.windowEnd;
        this.masks = o.masks;
        this.by = o.by.clone();
        this.masked = o.masked.clone();
        this.active = o.active.clone();
        this.other = o.other;
        this.t = o.t;
        this.done = o.done;
        this.ends = o.ends.clone();
        this.endCategories = o.endCategories.clone();
        this.open = o.open;
        this.bounds = o.bounds;
        this.byWindow = o.byWindow == null ? null : java.util.Arrays.stream(o.byWindow).map(long[]::clone).toArray(long[][]::new);
        this.window = o.window;
    }

    /**
     * Also charges every category's time to consecutive windows {@code [bounds[k], bounds[k + 1])} (ascending; the
     * timeline's own window should span them), read with {@link #windows()} after {@link #finish()}.
     */
    public PriorityTimeline perWindow(long[] bounds) {
        this.bounds = bounds.clone();
        this.byWindow = new long[Math.max(0, bounds.length - 1)][categories];
        return this;
    }

    /** Per window of {@link #perWindow}, the time charged to each category. */
    public long[][] windows() {
        return byWindow;
    }

    /** An independent timeline in the same state: what this one has swept so far, to go on differently. */
    public PriorityTimeline copy() {
        return new PriorityTimeline(this);
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

    /** Whether intervals starting later can still change the result (false once the window is swept). */
    public boolean accepting() {
        return !done;
    }

    /**
     * One interval; starts must not decrease from call to call. Intervals of a category outside
     * {@code [0, categories)} or of zero length only move the sweep forward.
     */
    public void offer(long start, long end, int category) {
        if (done) return;
        advance(start);
        if (done) return;
        long e = Math.max(start, end);
        if (category >= 0 && category < categories && e > start) {
            active[category]++;
            push(e, category);
        }
    }

    /** Sweeps to the end of the window and returns the figures; later offers are ignored. */
    public Result finish() {
        advance(Long.MAX_VALUE);
        return new Result(by, other, masked, Math.max(0, windowEnd - windowStart));
    }

    /** Charges time up to the next start (ends at or before it close first), stopping at the window's end. */
    private void advance(long nextStart) {
        while (!done) {
            long nextEnd = open == 0 ? Long.MAX_VALUE : ends[0];
            long next = Math.min(nextStart, nextEnd);
            if (next == Long.MAX_VALUE || next >= windowEnd) next = windowEnd;
            charge(next);
            if (next > t) t = next;
            if (next >= windowEnd && nextStart >= windowEnd) {
                done = true;
                return;
            }
            if (nextEnd > nextStart) return;
            active[endCategories[0]]--;
            pop();
        }
    }

    /** [t, next) clipped to the window goes to the highest active category, or to "other". */
    private void charge(long next) {
        long a = Math.max(t, windowStart);
        long b = Math.min(next, windowEnd);
        if (b <= a) return;
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
        if (top >= 0 && byWindow != null) chargeWindows(a, b, top);
    }

    /** [a, b) of category c over the windows it crosses (charges come in time order: the window only moves on). */
    private void chargeWindows(long a, long b, int c) {
        while (window + 1 < bounds.length - 1 && bounds[window + 1] <= a) window++;
        for (int w = window; w < byWindow.length && bounds[w] < b; w++) {
            long x = Math.max(a, bounds[w]);
            long y = Math.min(b, bounds[w + 1]);
            if (y > x) byWindow[w][c] += y - x;
        }
    }

    private void push(long end, int category) {
        if (open == ends.length) {
            ends = Arrays.copyOf(ends, open * 2);
            endCategories = Arrays.copyOf(endCategories, open * 2);
        }
        int i = open++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (ends[parent] <= end) break;
            ends[i] = ends[parent];
            endCategories[i] = endCategories[parent];
            i = parent;
        }
        ends[i] = end;
        endCategories[i] = category;
    }

    private void pop() {
        long last = ends[--open];
        int lastCategory = endCategories[open];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= open) break;
            if (child + 1 < open && ends[child + 1] < ends[child]) child++;
            if (ends[child] >= last) break;
            ends[i] = ends[child];
            endCategories[i] = endCategories[child];
            i = child;
        }
        if (open > 0) {
            ends[i] = last;
            endCategories[i] = lastCategory;
        }
    }

    /** The sweep over start-sorted sources, merged by start (on equal starts the earlier source first). */
    public Result run(List<IntervalSource> sources) throws Exception {
        List<IntervalSource> live = new ArrayList<>();
        for (IntervalSource s : sources) if (s.next()) live.add(s);
        while (!live.isEmpty() && accepting()) {
            IntervalSource first = live.get(0);
            for (IntervalSource s : live) if (s.start() < first.start()) first = s;
            offer(first.start(), first.end(), first.category());
            if (!first.next()) live.remove(first);
        }
        return finish();
    }
}
