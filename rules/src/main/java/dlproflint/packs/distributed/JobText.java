package dlproflint.packs.distributed;

import dlproflint.facts.JobInfo;
import dlproflint.facts.RankStats;
import dlproflint.findings.RankSet;
import dlproflint.findings.Units;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/** What the distributed pack's messages say about ranks: names, causes, the ranks at the top of a measure. */
public final class JobText {
    private JobText() {
    }

    public static String duration(double ns) {
        return Units.duration(ns);
    }

    public static String pct(double pct) {
        return Units.pct(pct);
    }

    /** {@code part} as a share of {@code whole}, for messages. */
    public static String share(double part, double whole) {
        return Units.pct(whole > 0 ? 100.0 * part / whole : 0);
    }

    /**
     * Why a rank needs longer before its collectives than the median rank: the part of its time (compute, data
     * loading, or host work while its GPU idled) that exceeds the median rank's the most.
     */
    public static String cause(RankStats r, JobInfo j) {
        return switch (causeKey(r, j)) {
            case "data-loading" -> "its data loading takes " + duration(r.dataLoaderNs() - j.dataLoaderNs().median())
                    + " longer than the median rank's";
            case "compute" -> "its compute takes " + duration(r.computeNs() - j.computeNs().median()) + " longer than the median rank's";
            case "host" -> "its GPU idles " + duration(r.idleNs() - j.idleNs().median())
                    + " longer than the median rank's (host-side work or launches)";
            default -> "no single part of its step explains it";
        };
    }

    /** {@code compute}, {@code data-loading}, {@code host} or {@code unknown}: the cause's key, for the evidence. */
    public static String causeKey(RankStats r, JobInfo j) {
        double compute = r.computeNs() - j.computeNs().median();
        double loader = r.dataLoaderNs() - j.dataLoaderNs().median();
        double idle = r.idleNs() - j.idleNs().median();
        if (loader >= compute && loader >= idle && loader > 0) return "data-loading";
        if (compute >= idle && compute > 0) return "compute";
        return idle > 0 ? "host" : "unknown";
    }

    /** Whether the job's collectives run on the host: a Gloo (or MPI) process group, no NCCL. */
    public static boolean hostCollectives(JobInfo j) {
        String b = j.backend() == null ? "" : j.backend().toLowerCase(java.util.Locale.ROOT);
        return (b.contains("gloo") || b.contains("mpi")) && !b.contains("nccl");
    }

    /** Up to {@code n} ranks with the highest value of a measure, highest first: {@code 7 (212 ms), 3 (209 ms)}. */
    public static String top(Collection<?> ranks, String measure, int n) {
        ToDoubleFunction<RankStats> f = switch (measure) {
            case "compute" -> RankStats::computeNs;
            case "dataLoader" -> RankStats::dataLoaderNs;
            case "exposed" -> RankStats::exposedCommNs;
            default -> RankStats::workNs;
        };
        List<RankStats> sorted = new ArrayList<>();
        for (Object o : ranks) if (o instanceof RankStats r) sorted.add(r);
        sorted.sort(Comparator.comparingDouble(f).reversed().thenComparingInt(RankStats::rank));
        List<String> parts = new ArrayList<>();
        for (RankStats r : sorted.subList(0, Math.min(n, sorted.size()))) {
            parts.add(r.rank() + " (" + duration(f.applyAsDouble(r)) + ")");
        }
        return String.join(", ", parts);
    }

    /** Ranks whose measure is at least {@code threshold}, written compactly ({@code 0-7,12}). */
    public static String ranksAtLeast(Collection<?> ranks, String measure, double threshold) {
        TreeSet<Integer> out = new TreeSet<>();
        for (Object o : ranks) {
            if (!(o instanceof RankStats r)) continue;
            double v = switch (measure) {
                case "compute" -> r.computeNs();
                case "dataLoader" -> r.dataLoaderNs();
                default -> r.workNs();
            };
            if (v >= threshold) out.add(r.rank());
        }
        return RankSet.compact(out);
    }
}
