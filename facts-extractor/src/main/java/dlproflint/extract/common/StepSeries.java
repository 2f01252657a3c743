package dlproflint.extract.common;

import dlproflint.facts.MeanSd;
import dlproflint.facts.ExtractionWarning;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The instances of one step family on one timeline, ordered by start, with what makes a good step
 * boundary measured: how regular the period is, how much of the run it spans, how much of its own span
 * its ranges fill. Built with {@link #of}; for step markers {@link #cleanMarkers} also resolves
 * contradictions (several threads, nesting, overlap) and says what it did.
 */
final class StepSeries {
    final String family;
    final long[] starts;
    final long[] ends;
    /** counter value of each instance (step number), or -1 when the family has none */
    final long[] numbers;

    private StepSeries(String family, long[] starts, long[] ends, long[] numbers) {
        this.family = family;
        this.starts = starts;
        this.ends = ends;
        this.numbers = numbers;
    }

    /** Instances gathered for one family before they are ordered: start, end, thread and counter value (-1 none). */
    static final class Raw {
        final String family;
        private long[][] cols = new long[4][8];
        private int size;

        Raw(String family) {
            this.family = family;
        }

        void add(long start, long end, long thread, long number) {
            if (size == cols[0].length) {
                for (int c = 0; c < 4; c++) cols[c] = Arrays.copyOf(cols[c], size * 2);
            }
            cols[0][size] = start;
            cols[1][size] = end;
            cols[2][size] = thread;
            cols[3][size] = number;
            size++;
        }

        /** Every instance of {@code in} with the counter value {@code number}, copied a column at a time. */
        void addAll(StepInstances in, long number) {
            int n = in.size();
            if (size + n > cols[0].length) {
                int room = Math.max(size + n, cols[0].length * 2);
                for (int c = 0; c < 4; c++) cols[c] = Arrays.copyOf(cols[c], room);
            }
            in.copyInto(cols[0], cols[1], cols[2], size);
            Arrays.fill(cols[3], size, size + n, number);
            size += n;
        }

        int size() {
            return size;
        }

        long[] row(int i) {
            return new long[] {cols[0][i], cols[1][i], cols[2][i], cols[3][i]};
        }

        long thread(int i) {
            return cols[2][i];
        }

        long first(int i) {
            return cols[0][i];
        }

        boolean numbered() {
            for (int i = 0; i < size; i++) if (cols[3][i] < 0) return false;
            return size > 0;
        }

        int threads() {
            return (int) Arrays.stream(cols[2], 0, size).distinct().count();
        }

        /** The thread with the most instances (ties: the one whose first instance is earliest). */
        long mainThread() {
            Map<Long, long[]> perThread = new HashMap<>();
            // instances come in runs of a thread: its count at hand, one map lookup a run
            long lastThread = 0;
            long[] c = null;
            for (int i = 0; i < size; i++) {
                if (c == null || cols[2][i] != lastThread) {
                    lastThread = cols[2][i];
                    c = perThread.get(lastThread);
                    if (c == null) perThread.put(lastThread, c = new long[] {0, Long.MAX_VALUE});
                }
                c[0]++;
                c[1] = Math.min(c[1], cols[0][i]);
            }
            long best = 0;
            long bestCount = -1;
            long bestFirst = Long.MAX_VALUE;
            for (Map.Entry<Long, long[]> e : perThread.entrySet()) {
                c = e.getValue();
                if (c[0] > bestCount || c[0] == bestCount && (c[1] < bestFirst || c[1] == bestFirst && e.getKey() < best)) {
                    best = e.getKey();
                    bestCount = c[0];
                    bestFirst = c[1];
                }
            }
            return best;
        }
    }

    int size() {
        return starts.length;
    }

    /**
     * The instances on the thread with the most of them, without instances nested in another instance of
     * the same family: the series of a landmark called on one thread, such as a DataLoader's {@code __next__}.
     */
    static StepSeries mainThread(Raw raw) {
        long main = raw.mainThread();
        int[] rows = new int[raw.size()];
        int n = 0;
        for (int i = 0; i < raw.size(); i++) if (raw.thread(i) == main) rows[n++] = i;
        return outermost(raw, Arrays.copyOf(rows, n), null);
    }

    /**
     * The raw instances {@code rows} sorted by start (then end descending; equal ones in the order given); an instance
     * inside an earlier kept one is dropped (counted in {@code nested[0]} when given). No array per instance: a family
     * of a million ranges is judged here.
     */
    private static StepSeries outermost(Raw raw, int[] rows, int[] nested) {
        long[] start = raw.cols[0];
        long[] end = raw.cols[1];
        long[] byStart = new long[rows.length];
        long[] byEndDescending = new long[rows.length];
        for (int i = 0; i < rows.length; i++) {
            byStart[i] = start[rows[i]];
            byEndDescending[i] = ~end[rows[i]];
        }
        int[] order = IndexSort.byKeys(rows.length, byStart, byEndDescending);
        int[] kept = new int[rows.length];
        int n = 0;
        long reach = Long.MIN_VALUE;
        for (int k : order) {
            int r = rows[k];
            if (n > 0 && end[r] <= reach && start[r] >= start[kept[n - 1]]) {
                if (nested != null) nested[0]++;
                continue;
            }
            kept[n++] = r;
            reach = Math.max(reach, end[r]);
        }
        long[] s = new long[n];
        long[] e = new long[n];
        long[] num = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = start[kept[i]];
            e[i] = end[kept[i]];
            num[i] = raw.cols[3][kept[i]];
        }
        return new StepSeries(raw.family, s, e, num);
    }

    /**
     * Step markers made consistent, each contradiction resolved by a documented choice and reported:
     * <ul>
     *   <li>steps on several threads: numbered steps with the same number are one step (earliest start to latest
     *       end: a multi-GPU job with one thread per GPU); unnumbered ones are taken from the thread with most;</li>
     *   <li>a step nested in another step of the family is dropped (the outer one counts);</li>
     *   <li>overlapping steps: the earlier one is cut where the next one starts;</li>
     *   <li>numbering gaps, repeated or decreasing numbers are reported; iterations follow time order.</li>
     * </ul>
     */
    static StepSeries cleanMarkers(Raw raw, String what, List<ExtractionWarning> warnings) {
        boolean numbered = raw.numbered();
        int threads = raw.threads();
        List<long[]> rows = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) rows.add(raw.row(i));
        if (threads > 1) {
            if (numbered) {
                Map<Long, long[]> byNumber = new TreeMap<>();
                for (long[] r : rows) {
                    long[] m = byNumber.get(r[3]);
                    if (m == null) byNumber.put(r[3], r.clone());
                    else {
                        m[0] = Math.min(m[0], r[0]);
                        m[1] = Math.max(m[1], r[1]);
                    }
                }
                rows = new ArrayList<>(byNumber.values());
                warnings.add(new ExtractionWarning("step-markers-threads", what + " ranges are on " + threads + " threads: "
                        + "steps with the same number are taken as one step, from the earliest start to the latest end"));
            } else {
                StepSeries main = mainThread(raw);
                warnings.add(new ExtractionWarning("step-markers-threads", what + " ranges are on " + threads + " threads: "
                        + "the steps of the thread with the most of them (" + main.size() + ") are used"));
                rows = new ArrayList<>();
                for (int i = 0; i < main.size(); i++) rows.add(new long[] {main.starts[i], main.ends[i], 0, -1});
            }
        }
        int[] nested = {0};
        Raw resolved = new Raw(raw.family);
        for (long[] r : rows) resolved.add(r[0], r[1], r[2], r[3]);
        int[] all = new int[resolved.size()];
        for (int i = 0; i < all.length; i++) all[i] = i;
        StepSeries s = outermost(resolved, all, nested);
        if (nested[0] > 0) {
            warnings.add(new ExtractionWarning("step-markers-nested", nested[0] + " " + what + " range"
                    + (nested[0] == 1 ? " lies" : "s lie") + " inside another one of the same family and "
                    + (nested[0] == 1 ? "was" : "were") + " ignored: the outer range is the step"));
        }
        int overlaps = 0;
        for (int i = 0; i + 1 < s.size(); i++) {
            if (s.ends[i] > s.starts[i + 1]) {
                s.ends[i] = s.starts[i + 1];
                overlaps++;
            }
        }
        if (overlaps > 0) {
            warnings.add(new ExtractionWarning("step-markers-overlap", overlaps + " " + what + " range" + (overlaps == 1 ? "" : "s")
                    + " overlap the next one: each step is cut where the next one starts"));
        }
        if (numbered) numbering(s, what, warnings);
        return s;
    }

    private static void numbering(StepSeries s, String what, List<ExtractionWarning> warnings) {
        List<String> missing = new ArrayList<>();
        long missingCount = 0;
        int repeated = 0;
        int decreasing = 0;
        for (int i = 0; i + 1 < s.size(); i++) {
            long a = s.numbers[i];
            long b = s.numbers[i + 1];
            if (b == a) repeated++;
            else if (b < a) decreasing++;
            else if (b > a + 1) {
                missingCount += b - a - 1;
                if (missing.size() < 5) missing.add(b - a == 2 ? String.valueOf(a + 1) : (a + 1) + "-" + (b - 1));
            }
        }
        if (missingCount > 0) {
            warnings.add(new ExtractionWarning("step-numbering-gap", what + " numbering has gaps (" + missingCount + " step"
                    + (missingCount == 1 ? "" : "s") + " missing: " + String.join(", ", missing)
                    + (missing.size() == 5 ? ", ..." : "") + "): the steps present are the iterations, numbered in time order"));
        }
        if (repeated + decreasing > 0) {
            warnings.add(new ExtractionWarning("step-numbering-order", what + " numbers repeat (" + repeated + ") or go down ("
                    + decreasing + ") in time: iterations follow time order, not the numbers"));
        }
    }

    long medianPeriod() {
        return medianGap(starts);
    }

    /** Median distance between neighbours of ascending times (0 with fewer than two). */
    static long medianGap(long[] sorted) {
        if (sorted.length < 2) return 0;
        long[] gaps = new long[sorted.length - 1];
        for (int i = 0; i < gaps.length; i++) gaps[i] = sorted[i + 1] - sorted[i];
        Arrays.sort(gaps);
        return gaps[gaps.length / 2];
    }

    /** Coefficient of variation of the start-to-start period, in percent (0 with one period only; 100 with none). */
    double periodVariationPct() {
        if (size() < 3) return size() == 2 ? 0 : 100;
        MeanSd period = new MeanSd();
        for (int i = 0; i + 1 < size(); i++) period.add(starts[i + 1] - starts[i]);
        return period.cvPct(100);
    }

    /** Share of {@code [from, to)} between the first instance's start and the last one's start plus a period, 0..100. */
    double coveragePct(long from, long to) {
        if (size() == 0 || to <= from) return 0;
        long span = starts[size() - 1] - starts[0] + medianPeriod();
        if (size() == 1) span = ends[0] - starts[0];
        return Math.min(100, 100.0 * span / (to - from));
    }

    /** How much of their own span the ranges fill (steps tile their span; ops inside steps do not), 0..100. */
    double tilingPct() {
        if (size() == 0) return 0;
        long span = ends[size() - 1] - starts[0];
        long sum = 0;
        for (int i = 0; i < size(); i++) sum += ends[i] - starts[i];
        return span <= 0 ? 0 : Math.min(100, 100.0 * sum / span);
    }

    /** Share of consecutive instances whose number goes up, 0..100 (a step counter counts up). */
    double risingPct() {
        if (size() < 2) return 100;
        int up = 0;
        for (int i = 0; i + 1 < size(); i++) if (numbers[i + 1] > numbers[i]) up++;
        return 100.0 * up / (size() - 1);
    }

    long distinctNumbers() {
        return Arrays.stream(numbers).distinct().count();
    }
}
