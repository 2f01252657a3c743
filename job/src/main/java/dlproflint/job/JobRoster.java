package dlproflint.job;

import dlproflint.facts.DistributedInfo;
import dlproflint.facts.JobInput;
import dlproflint.findings.RankSummary;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides which profile is which rank of the job, and which profiles are left out. A rank's identity comes from
 * the profile ({@code distributedInfo}, NCCL communicator data, the process environment), then from its file
 * name ({@code rank-3}, {@code rank_3}, {@code worker3}), then from its position among the profiles without one.
 * Profiles of another job (a different world size or job id than most profiles record), of a rank outside the
 * world, or of a rank an earlier profile already covers are left out; each such choice is named in
 * {@link #inputs()} and {@link #notes()}. Unreadable profiles are listed as such.
 */
public final class JobRoster {
    /** One given profile: its summary when it could be read, else why not. */
    public record Read(String profile, RankSummary summary, String error) implements java.io.Serializable {
        public static Read ok(String profile, RankSummary summary) {
            return new Read(profile, summary, null);
        }

        public static Read failed(String profile, String error) {
            return new Read(profile, null, error);
        }
    }

    public static final String BY_FILE_NAME = "file name";
    public static final String BY_POSITION = "position";
    private static final Pattern RANK_IN_NAME =
            Pattern.compile("(?i)(?:^|[^a-z])(?:rank|worker|proc)[-_.]?(\\d{1,7})(?!\\d)");

    private final Map<Integer, RankSummary> kept = new TreeMap<>();
    private final Map<Integer, String> identifiedBy = new TreeMap<>();
    private final List<JobInput> inputs = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    /**
     * The largest world size taken from a profile: 2^20 ranks, beyond the largest training jobs run. A larger claim is
     * not believed (and would make the missing ranks a list of millions); the job's size then comes from its ranks.
     */
    public static final int MAX_WORLD_SIZE = 1 << 20;

    private int worldSize;
    private String worldSizeSource;
    private String backend;

    private JobRoster() {
    }

    /** @param reads one per profile, in the order the profiles were given */
    public static JobRoster of(List<Read> reads) {
        JobRoster r = new JobRoster();
        r.decide(reads);
        return r;
    }

    /** The kept ranks' summaries, by rank. */
    public Map<Integer, RankSummary> ranks() {
        return Collections.unmodifiableMap(kept);
    }

    /** Every given profile and what became of it, in the order given. */
    public List<JobInput> inputs() {
        return List.copyOf(inputs);
    }

    /** The choices made about the inputs, one sentence each. */
    public List<String> notes() {
        return List.copyOf(notes);
    }

    public int worldSize() {
        return worldSize;
    }

    public String worldSizeSource() {
        return worldSizeSource;
    }

    public String backend() {
        return backend;
    }

    /** How the kept ranks were identified, in a fixed order ({@code distributedInfo, file name}). */
    public String rankSource() {
        Set<String> order = new LinkedHashSet<>(List.of("distributedInfo", "nccl-communicator", "environment",
                BY_FILE_NAME, BY_POSITION));
        Set<String> seen = new LinkedHashSet<>(identifiedBy.values());
        List<String> out = new ArrayList<>();
        for (String s : order) if (seen.contains(s)) out.add(s);
        for (String s : seen) if (!order.contains(s)) out.add(s);
        return String.join(", ", out);
    }

    public int profilesGiven() {
        return inputs.size();
    }

    private record Claim(int index, Read read, int rank, String source, int world, String jobId) {
    }

    private void decide(List<Read> reads) {
        List<Claim> claims = new ArrayList<>();
        JobInput[] out = new JobInput[reads.size()];
        for (int i = 0; i < reads.size(); i++) {
            Read rd = reads.get(i);
            if (rd.summary() == null) {
                out[i] = new JobInput(rd.profile(), null, -1, null, JobInput.UNREADABLE,
                        rd.error() == null ? "could not be read" : rd.error());
                notes.add(rd.profile() + ": unreadable (" + (rd.error() == null ? "could not be read" : rd.error())
                        + "); the job is reported without it");
                continue;
            }
            DistributedInfo d = rd.summary().distributed();
            int rank = -1;
            String source = null;
            if (d != null && d.rankKnown()) {
                rank = d.rank();
                source = d.source();
            } else {
                int fromName = rankFromName(rd.profile());
                if (fromName >= 0) {
                    rank = fromName;
                    source = BY_FILE_NAME;
                }
            }
            int claimedWorld = d != null && d.worldSizeKnown() ? d.worldSize() : 0;
            if (claimedWorld > MAX_WORLD_SIZE) {
                // a number no job has had (2^31-1, 1e300 read as an int, 50 million): the ranks read say more
                notes.add(rd.profile() + ": claims a world size of " + claimedWorld + ", implausible (no job has had more than "
                        + MAX_WORLD_SIZE + " ranks); the job's size is taken from the ranks read");
                claimedWorld = 0;
            }
            claims.add(new Claim(i, rd, rank, source, claimedWorld, d == null ? null : d.jobId()));
        }

        // the job is what most profiles say it is; ties go to the profile given first
        int world = majority(claims, c -> c.world() > 0 ? c.world() : null, 0);
        String jobId = majority(claims.stream().filter(c -> c.world() == 0 || c.world() == world).toList(),
                Claim::jobId, null);
        long worldVotes = claims.stream().filter(c -> c.world() == world).count();

        List<Claim> unidentified = new ArrayList<>();
        Map<Integer, String> firstFile = new LinkedHashMap<>();
        for (Claim c : claims) {
            String why = null;
            if (world > 0 && c.world() > 0 && c.world() != world) {
                why = "world size " + c.world() + ", but " + worldVotes + " of " + claims.size()
                        + " readable profiles say " + world;
            } else if (jobId != null && c.jobId() != null && !jobId.equals(c.jobId())) {
                why = "job '" + c.jobId() + "', but most profiles are of job '" + jobId + "'";
            } else if (world > 0 && c.rank() >= world) {
                why = "rank " + c.rank() + " (by " + c.source() + ") is outside the job's world size " + world;
            }
            if (why != null) {
                out[c.index()] = new JobInput(c.read().profile(), c.read().summary().format(), c.rank(), c.source(),
                        JobInput.OTHER_JOB, why);
                notes.add(c.read().profile() + ": left out as another job's profile: " + why);
                continue;
            }
            if (c.rank() < 0) {
                unidentified.add(c);
                continue;
            }
            String first = firstFile.get(c.rank());
            if (first != null) {
                String why2 = "rank " + c.rank() + " (by " + c.source() + ") is already covered by " + first
                        + ", given earlier; that one is kept";
                out[c.index()] = new JobInput(c.read().profile(), c.read().summary().format(), c.rank(), c.source(),
                        JobInput.DUPLICATE, why2);
                notes.add(c.read().profile() + ": left out as a duplicate: " + why2);
                continue;
            }
            firstFile.put(c.rank(), c.read().profile());
            keep(out, c, c.rank(), c.source());
        }
        int next = 0;
        for (Claim c : unidentified) {
            while (firstFile.containsKey(next)) next++;
            if (world > 0 && next >= world) {
                String why = "it says nothing of its rank and every rank of world size " + world + " is covered";
                out[c.index()] = new JobInput(c.read().profile(), c.read().summary().format(), -1, null,
                        JobInput.DUPLICATE, why);
                notes.add(c.read().profile() + ": left out: " + why);
                continue;
            }
            firstFile.put(next, c.read().profile());
            keep(out, c, next, BY_POSITION);
            notes.add(c.read().profile() + ": records no rank (no distributedInfo, communicator data, environment or"
                    + " rank in its name); taken as rank " + next + " by its position");
        }
        for (JobInput in : out) inputs.add(in);

        if (world > 0) {
            worldSize = world;
            worldSizeSource = majority(claims.stream().filter(c -> c.world() == world).toList(),
                    c -> c.read().summary().distributed().source(), "profiles");
        } else {
            worldSize = kept.isEmpty() ? 0 : ((TreeMap<Integer, RankSummary>) kept).lastKey() + 1;
            worldSizeSource = "ranks read";
        }
        backend = majority(kept.values().stream().toList(),
                s -> s.distributed() == null ? null : s.distributed().backend(), null);
    }

    private void keep(JobInput[] out, Claim c, int rank, String source) {
        kept.put(rank, c.read().summary());
        identifiedBy.put(rank, source);
        out[c.index()] = new JobInput(c.read().profile(), c.read().summary().format(), rank, source, JobInput.USED, "");
    }

    /** The value most items have (nulls ignored); ties go to the value seen first; {@code none} when no item has one. */
    static <T, V> V majority(List<T> items, java.util.function.Function<T, V> value, V none) {
        Map<V, Integer> counts = new LinkedHashMap<>();
        for (T t : items) {
            V v = value.apply(t);
            if (v != null) counts.merge(v, 1, Integer::sum);
        }
        V best = none;
        int bestCount = 0;
        for (Map.Entry<V, Integer> e : counts.entrySet()) {
            if (e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return best;
    }

    /** The rank a file's name (or, failing that, its folder's name) carries, or -1. */
    public static int rankFromName(String profile) {
        Path p;
        try {
            p = Path.of(profile);
        } catch (RuntimeException e) {
            p = null;
        }
        String name = p == null || p.getFileName() == null ? profile : p.getFileName().toString();
        int r = rankIn(name);
        if (r < 0 && p != null && p.getParent() != null && p.getParent().getFileName() != null) {
            r = rankIn(p.getParent().getFileName().toString());
        }
        return r;
    }

    private static int rankIn(String name) {
        Matcher m = RANK_IN_NAME.matcher(name);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }
}
