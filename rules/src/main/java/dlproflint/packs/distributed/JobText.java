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

    /** {@code part} as a share of {@code whole}, for messages. */
    public static String share(double part, double whole) {
        return Units.pct(whole > 0 ? 100.0 * part / whole : 0);
    }

    /**
     * Why a rank needs longer before its collectives than the median rank: the part of its time (compute, data
     * loading, or host work while its GPU idled) that exceeds the median rank's the most; its key is the evidence's
     * {@code cause}, and each cause has its advice.
     */
    public enum Cause {
        DATA_LOADING("data-loading", "its input pipeline (more DataLoader workers, pin_memory, a faster or local copy of its data"
                + " shard, an even shard size)"),
        COMPUTE("compute", "its GPU (nvidia-smi -q -d CLOCK,PERFORMANCE,TEMPERATURE on its host for throttling or a degraded part;"
                + " ECC errors) or more work in its shard (uneven batches or sequence lengths)"),
        HOST("host", "its host (CPU contention from other processes, a slow CPU or NUMA placement, Python work between launches)"),
        UNKNOWN("unknown", HOST.advice);

        private final String key;
        private final String advice;

        Cause(String key, String advice) {
            this.key = key;
            this.advice = advice;
        }

        /** {@code compute}, {@code data-loading}, {@code host} or {@code unknown}. */
        public String key() {
            return key;
        }

        /** Where to look for it, for the recommendation. */
        public String advice() {
            return advice;
        }

        public static Cause of(RankStats r, JobInfo j) {
            double compute = r.computeNs() - j.computeNs().median();
            double loader = r.dataLoaderNs() - j.dataLoaderNs().median();
            double idle = r.idleNs() - j.idleNs().median();
            if (loader >= compute && loader >= idle && loader > 0) return DATA_LOADING;
            if (compute >= idle && compute > 0) return COMPUTE;
            return idle > 0 ? HOST : UNKNOWN;
        }

        /** The cause, with the measured excess, for the message. */
        public String describe(RankStats r, JobInfo j) {
            return switch (this) {
                case DATA_LOADING -> "its data loading takes " + Units.duration(r.dataLoaderNs() - j.dataLoaderNs().median())
                        + " longer than the median rank's";
                case COMPUTE -> "its compute takes " + Units.duration(r.computeNs() - j.computeNs().median()) + " longer than the median rank's";
                case HOST -> "its GPU idles " + Units.duration(r.idleNs() - j.idleNs().median())
                        + " longer than the median rank's (host-side work or launches)";
                case UNKNOWN -> "no single part of its step explains it";
            };
        }
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
            parts.add(r.rank() + " (" + Units.duration(f.applyAsDouble(r)) + ")");
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
