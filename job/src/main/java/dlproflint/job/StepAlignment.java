package dlproflint.job;

import dlproflint.facts.CollectiveCalls;
import dlproflint.facts.CollectiveKind;
import dlproflint.facts.StepActivity;
import dlproflint.findings.RankSet;
import dlproflint.findings.RankSummary;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which step of each rank is compared with which: by step number ({@code ProfilerStep#N}) where every rank has
 * the same numbers, the steps all ranks share when some have more; by position (each rank's first, second, ...
 * step) when the ranks' numbers do not overlap at all (profilers started at different steps, or iteration indices
 * of nsys exports beside Kineto step numbers). Never by wall-clock time: the ranks' clocks differ.
 */
final class StepAlignment {
    private static final int KINDS = CollectiveKind.values().length;
    /** collective slots: a kind's kernels at its ordinal, its host-side calls at {@code KINDS + ordinal} */
    static final int SLOTS = 2 * KINDS;
    private static final int LISTED = 8;

    private final int[] ranks;
    private final int[] stepNumbers;
    private final String method;
    private final List<String> notes = new ArrayList<>();
    private final Map<Integer, StepActivity[]> activity = new TreeMap<>();
    private final Map<Integer, long[][]> calls = new TreeMap<>();
    private final Map<Integer, long[][]> time = new TreeMap<>();
    private final Map<Integer, long[][]> bytes = new TreeMap<>();
    private final Map<Integer, long[][]> busy = new TreeMap<>();

    private StepAlignment(int[] ranks, int[] stepNumbers, String method) {
        this.ranks = ranks;
        this.stepNumbers = stepNumbers;
        this.method = method;
    }

    static StepAlignment of(Map<Integer, RankSummary> summaries) {
        List<String> noSteps = new ArrayList<>();
        Map<Integer, TreeMap<Integer, StepActivity>> byRank = new TreeMap<>();
        for (Map.Entry<Integer, RankSummary> e : summaries.entrySet()) {
            TreeMap<Integer, StepActivity> m = new TreeMap<>();
            for (StepActivity s : e.getValue().steps()) m.putIfAbsent(s.step(), s);
            if (m.isEmpty()) noSteps.add("rank " + e.getKey() + " (" + e.getValue().profile() + ")");
            else byRank.put(e.getKey(), m);
        }
        TreeSet<Integer> common = null;
        for (TreeMap<Integer, StepActivity> m : byRank.values()) {
            if (common == null) common = new TreeSet<>(m.keySet());
            else common.retainAll(m.keySet());
        }
        int[] ranks = byRank.keySet().stream().mapToInt(Integer::intValue).toArray();
        StepAlignment a;
        if (byRank.isEmpty()) {
            a = new StepAlignment(ranks, new int[0], "none");
        } else if (!common.isEmpty()) {
            a = new StepAlignment(ranks, common.stream().mapToInt(Integer::intValue).toArray(), "step-number");
            a.noteDiffering(byRank, common);
            for (Map.Entry<Integer, TreeMap<Integer, StepActivity>> e : byRank.entrySet()) {
                StepActivity[] act = new StepActivity[a.stepNumbers.length];
                for (int i = 0; i < act.length; i++) act[i] = e.getValue().get(a.stepNumbers[i]);
                a.put(e.getKey(), act, summaries.get(e.getKey()));
            }
        } else {
            int count = byRank.values().stream().mapToInt(TreeMap::size).min().orElse(0);
            TreeMap<Integer, StepActivity> first = byRank.values().iterator().next();
            int[] numbers = first.keySet().stream().limit(count).mapToInt(Integer::intValue).toArray();
            a = new StepAlignment(ranks, numbers, "position");
            a.notes.add("the ranks' step numbers have none in common (" + describe(byRank) + "): steps aligned by"
                    + " position, the first " + count + " of every rank, numbered as rank " + ranks[0] + "'s");
            for (Map.Entry<Integer, TreeMap<Integer, StepActivity>> e : byRank.entrySet()) {
                StepActivity[] act = e.getValue().values().stream().limit(count).toArray(StepActivity[]::new);
                a.put(e.getKey(), act, summaries.get(e.getKey()));
            }
        }
        if (!noSteps.isEmpty()) {
            a.notes.add(list(noSteps) + (noSteps.size() == 1 ? " has" : " have")
                    + " no per-step activity (no steps or iterations in the profile): left out of the cross-rank step facts");
        }
        return a;
    }

    private void noteDiffering(Map<Integer, TreeMap<Integer, StepActivity>> byRank, TreeSet<Integer> common) {
        List<String> differing = new ArrayList<>();
        for (Map.Entry<Integer, TreeMap<Integer, StepActivity>> e : byRank.entrySet()) {
            if (e.getValue().size() != common.size()) {
                differing.add("rank " + e.getKey() + " has " + e.getValue().size() + " (" + range(e.getValue().keySet()) + ")");
            }
        }
        if (differing.isEmpty()) return;
        notes.add("ranks have different steps: " + list(differing) + "; aligned on the " + common.size()
                + " step" + (common.size() == 1 ? "" : "s") + " every rank has (" + range(common) + ")");
    }

    private void put(int rank, StepActivity[] act, RankSummary s) {
        activity.put(rank, act);
        Map<Integer, Integer> index = new LinkedHashMap<>();
        for (int i = 0; i < act.length; i++) index.put(act[i].step(), i);
        long[][] c = new long[act.length][SLOTS];
        long[][] t = new long[act.length][SLOTS];
        long[][] u = new long[act.length][SLOTS];
        long[][] b = new long[act.length][SLOTS];
        for (long[] row : b) Arrays.fill(row, -1);
        for (CollectiveCalls cc : s.collectives()) {
            Integer i = index.get(cc.step());
            if (i == null) continue;
            int k = slot(cc.kind(), cc.host());
            c[i][k] += cc.calls();
            t[i][k] += cc.timeNs();
            u[i][k] += cc.busyNs();
            if (cc.bytesKnown()) b[i][k] = Math.max(0, b[i][k]) + cc.bytes();
        }
        calls.put(rank, c);
        time.put(rank, t);
        busy.put(rank, u);
        bytes.put(rank, b);
    }

    private static String describe(Map<Integer, TreeMap<Integer, StepActivity>> byRank) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Integer, TreeMap<Integer, StepActivity>> e : byRank.entrySet()) {
            parts.add("rank " + e.getKey() + ": " + range(e.getValue().keySet()));
        }
        return list(parts);
    }

    private static String range(java.util.Collection<Integer> steps) {
        return steps.isEmpty() ? "none" : RankSet.compact(steps);
    }

    private static String list(List<String> items) {
        if (items.size() <= LISTED) return String.join(", ", items);
        return String.join(", ", items.subList(0, LISTED)) + " and " + (items.size() - LISTED) + " more";
    }

    int steps() {
        return stepNumbers.length;
    }

    int[] ranks() {
        return ranks;
    }

    int stepNumber(int aligned) {
        return stepNumbers[aligned];
    }

    String method() {
        return method;
    }

    List<String> notes() {
        return notes;
    }

    StepActivity[] activity(int rank) {
        return activity.get(rank);
    }

    long[][] calls(int rank) {
        return calls.get(rank);
    }

    long[][] collectiveTime(int rank) {
        return time.get(rank);
    }

    long[][] bytes(int rank) {
        return bytes.get(rank);
    }

    /** Per aligned step and slot: time at least one call was in flight. */
    long[][] busy(int rank) {
        return busy.get(rank);
    }

    static int slot(CollectiveKind kind, boolean host) {
        return kind.ordinal() + (host ? KINDS : 0);
    }

    static CollectiveKind kind(int slot) {
        return CollectiveKind.values()[slot % KINDS];
    }

    static boolean host(int slot) {
        return slot >= KINDS;
    }
}
