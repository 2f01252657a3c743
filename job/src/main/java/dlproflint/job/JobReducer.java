package dlproflint.job;

import dlproflint.facts.CollectiveSummary;
import dlproflint.facts.JobFacts;
import dlproflint.facts.JobInfo;
import dlproflint.facts.Percent;
import dlproflint.facts.RankSpread;
import dlproflint.facts.RankStats;
import dlproflint.facts.RankStep;
import dlproflint.facts.StepActivity;
import dlproflint.findings.RankSet;
import dlproflint.findings.RankSummary;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Computes a job's cross-rank facts from its ranks' summaries. Clocks of different hosts differ, so nothing is
 * compared across ranks by wall-clock time: steps are aligned by their number, and waiting is estimated from
 * durations alone. Collectives finish on every rank at about the same moment; a rank that arrives early waits
 * for the last one inside the collective's kernel, or inside the host-side work of a Gloo collective. So, per
 * aligned step and collective kind (kernels and host calls apart), the rank whose calls of that kind were in flight
 * least arrived last, and every other rank's extra in-flight time is its wait (a lower bound when different ranks
 * arrive last at different calls of one step). In-flight time is the union of the calls: Gloo runs several works at
 * once, each waiting for the same late rank, and that wait is spent once.
 * <p>
 * That wait is summed over the step's calls, and a rank a little behind waits a little in every one of them
 * while its compute goes on, so the sum says how long collective kernels sat waiting, not how much later the
 * rank got to them. How late it arrives is its wait per kernel (of the kind where that is largest), or for host-side
 * collectives its extra in-flight time (works that run at once, or queue behind each other on the process group's
 * worker threads, wait for the late rank together, once); what the rank
 * needs before it can enter its collectives ({@code workNs}) is its step time minus that lateness.
 */
public final class JobReducer {
    private JobReducer() {
    }

    public static JobFacts reduce(String label, JobRoster roster) {
        Map<Integer, RankSummary> ranks = roster.ranks();
        StepAlignment align = StepAlignment.of(ranks);
        List<String> notes = new ArrayList<>(roster.notes());
        notes.addAll(align.notes());
        int n = align.steps();
        int[] rankIds = align.ranks();

        // per aligned step and slot (kind, kernels or host): the least summed and in-flight time any rank spent
        int slots = StepAlignment.SLOTS;
        long[][] leastTime = new long[n][slots];
        long[][] leastBusy = new long[n][slots];
        int[][] runners = new int[n][slots];
        for (long[] row : leastTime) java.util.Arrays.fill(row, Long.MAX_VALUE);
        for (long[] row : leastBusy) java.util.Arrays.fill(row, Long.MAX_VALUE);
        for (int rank : rankIds) {
            long[][] t = align.collectiveTime(rank);
            long[][] u = align.busy(rank);
            for (int a = 0; a < n; a++) {
                for (int k = 0; k < slots; k++) {
                    if (align.calls(rank)[a][k] > 0) {
                        runners[a][k]++;
                        leastTime[a][k] = Math.min(leastTime[a][k], t[a][k]);
                        leastBusy[a][k] = Math.min(leastBusy[a][k], u[a][k]);
                    }
                }
            }
        }

        List<RankStep> steps = new ArrayList<>();
        long[][] waits = new long[rankIds.length][n];
        double[][] lateness = new double[rankIds.length][n];
        boolean[][] ranComm = new boolean[rankIds.length][n];
        for (int i = 0; i < rankIds.length; i++) {
            int rank = rankIds[i];
            long[][] t = align.collectiveTime(rank);
            long[][] u = align.busy(rank);
            long[][] calls = align.calls(rank);
            for (int a = 0; a < n; a++) {
                long w = 0;
                double late = 0;
                for (int k = 0; k < slots; k++) {
                    if (calls[a][k] > 0 && runners[a][k] >= 2) {
                        // waiting: in-flight time beyond the least (calls running at once wait together, once)
                        w += u[a][k] - leastBusy[a][k];
                        // lateness: a kernel waits for the late rank in every call while the rank's compute goes on
                        // (its own stream), so the summed extra per call; host works that wait for it run at once or
                        // queue behind each other on the worker threads, so the extra in-flight time, once
                        late = Math.max(late, StepAlignment.host(k) ? u[a][k] - leastBusy[a][k]
                                : (t[a][k] - leastTime[a][k]) / (double) calls[a][k]);
                        ranComm[i][a] = true;
                    }
                }
                waits[i][a] = w;
                lateness[i][a] = late;
            }
        }
        // the rank that waited least in a step arrived last (only when it is the only one)
        int[] lastArrivals = new int[rankIds.length];
        for (int a = 0; a < n; a++) {
            int best = -1;
            boolean unique = false;
            int present = 0;
            for (int i = 0; i < rankIds.length; i++) {
                if (!ranComm[i][a]) continue;
                present++;
                if (best < 0 || waits[i][a] < waits[best][a]) {
                    best = i;
                    unique = true;
                } else if (waits[i][a] == waits[best][a]) {
                    unique = false;
                }
            }
            if (best >= 0 && unique && present >= 2) lastArrivals[best]++;
        }

        List<RankStats> stats = new ArrayList<>();
        double[][] perRank = new double[9][rankIds.length];
        double commSum = 0;
        double overlappedSum = 0;
        boolean collectivesSeen = false;
        for (int i = 0; i < rankIds.length; i++) {
            int rank = rankIds[i];
            StepActivity[] act = align.activity(rank);
            long[] sum = new long[8];
            double lateSum = 0;
            for (int a = 0; a < n; a++) {
                StepActivity s = act[a];
                steps.add(new RankStep(rank, align.stepNumber(a), s.stepNs(), s.computeNs(), s.commNs(), s.exposedCommNs(),
                        s.dataLoaderNs(), s.idleNs(), waits[i][a]));
                sum[0] += s.stepNs();
                sum[1] += s.computeNs();
                sum[2] += s.commNs();
                sum[3] += s.exposedCommNs();
                sum[4] += s.dataLoaderNs();
                sum[5] += s.idleNs();
                sum[6] += waits[i][a];
                sum[7] += s.overlappedCommNs();
                lateSum += lateness[i][a];
            }
            double d = Math.max(1, n);
            double wait = sum[6] / d;
            RankStats rs = new RankStats(rank, ranks.get(rank).profile(), n, sum[0] / d, sum[1] / d, sum[2] / d,
                    sum[3] / d, sum[4] / d, sum[5] / d, wait, Math.max(0, (sum[0] - lateSum) / d), lastArrivals[i],
                    Percent.of(sum[7], sum[2]));
            stats.add(rs);
            double[] v = {rs.stepNs(), rs.computeNs(), rs.commNs(), rs.exposedCommNs(), rs.dataLoaderNs(), rs.idleNs(),
                    rs.waitNs(), rs.workNs()};
            for (int m = 0; m < v.length; m++) perRank[m][i] = v[m];
            commSum += sum[2];
            overlappedSum += sum[7];
            if (sum[2] > 0) collectivesSeen = true;
        }
        for (RankSummary s : ranks.values()) {
            if (!s.collectives().isEmpty()) collectivesSeen = true;
        }

        JobInfo info = new JobInfo(label, roster.worldSize(), roster.worldSizeSource(), roster.rankSource(),
                roster.backend(), roster.profilesGiven(), ranks.size(), RankSet.missing(roster.worldSize(), ranks.keySet()),
                n, align.method(), collectivesSeen, RankSpread.of(perRank[0]), RankSpread.of(perRank[1]),
                RankSpread.of(perRank[2]), RankSpread.of(perRank[3]), RankSpread.of(perRank[4]),
                RankSpread.of(perRank[5]), RankSpread.of(perRank[6]), RankSpread.of(perRank[7]),
                Percent.of(overlappedSum, commSum));
        return new JobFacts(info, stats, steps, collectives(align, waits, rankIds), roster.inputs(), notes);
    }

    private static List<CollectiveSummary> collectives(StepAlignment align, long[][] waits, int[] rankIds) {
        int n = align.steps();
        List<CollectiveSummary> out = new ArrayList<>();
        for (int k = 0; k < StepAlignment.SLOTS; k++) {
            int ranksRunning = 0;
            double calls = 0;
            double time = 0;
            double bytes = 0;
            boolean bytesKnown = false;
            for (int rank : rankIds) {
                long[][] c = align.calls(rank);
                long[][] u = align.busy(rank);
                long[][] b = align.bytes(rank);
                boolean any = false;
                for (int a = 0; a < n; a++) {
                    if (c[a][k] == 0) continue;
                    any = true;
                    calls += c[a][k];
                    time += u[a][k];
                    if (b[a][k] >= 0) {
                        bytes += b[a][k];
                        bytesKnown = true;
                    }
                }
                if (any) ranksRunning++;
            }
            if (ranksRunning == 0) continue;
            double wait = waitOfSlot(align, k, rankIds);
            double per = (double) ranksRunning * Math.max(1, n);
            out.add(new CollectiveSummary(StepAlignment.kind(k), StepAlignment.host(k), ranksRunning, calls / per,
                    bytesKnown ? bytes / per : -1, time / per, wait / per, Percent.of(wait, time)));
        }
        return out;
    }

    /** Summed wait (in-flight time beyond the least) of one slot over ranks and aligned steps. */
    private static double waitOfSlot(StepAlignment align, int k, int[] rankIds) {
        double total = 0;
        for (int a = 0; a < align.steps(); a++) {
            long least = Long.MAX_VALUE;
            int runners = 0;
            for (int rank : rankIds) {
                if (align.calls(rank)[a][k] > 0) {
                    runners++;
                    least = Math.min(least, align.busy(rank)[a][k]);
                }
            }
            if (runners < 2) continue;
            for (int rank : rankIds) {
                if (align.calls(rank)[a][k] > 0) total += align.busy(rank)[a][k] - least;
            }
        }
        return total;
    }
}
