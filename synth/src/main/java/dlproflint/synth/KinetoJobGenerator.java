package dlproflint.synth;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Writes the per-rank Kineto traces of a synchronous data-parallel job from one real rank's trace. Every rank
 * replays the template's steps (cycled to the requested number) with its own timing:
 * <ul>
 *   <li>each rank's work in a step is stretched by its own factor: per-rank, per-step jitter, times a slowdown
 *       on the straggler rank;</li>
 *   <li>collectives - communication kernels (NCCL), or the work ranges of collectives run on the host (Gloo's
 *       {@code gloo:*}) - start when the rank gets there (its stretched position, and not before the previous
 *       collective finished) and end together on every rank when the last one has arrived plus the template's
 *       transfer time (times a slowdown when a link is slow): a collective's duration on each rank follows the
 *       slowest arrival;</li>
 *   <li>everything after the step's last collective waits for it; the next step starts on every rank when the
 *       slowest rank has finished;</li>
 *   <li>optionally each step begins with a DataLoader call, longer on a chosen rank;</li>
 *   <li>each rank's clock has its own offset (ranks are never aligned by time), and {@code distributedInfo}
 *       and the collective metadata say its rank and the world size.</li>
 * </ul>
 * Events outside the template's steps are left out. The template is parsed once; each event's JSON except its
 * times is prepared once, so writing a rank is mostly copying text.
 *
 * <pre>
 * java -cp bench/target/dlprof-lint-bench.jar dlproflint.synth.KinetoJobGenerator TEMPLATE OUT_DIR --ranks 64 --straggler 17
 * </pre>
 */
public final class KinetoJobGenerator {
    private static final Pattern STEP = Pattern.compile("^ProfilerStep#(\\d+)$");
    private static final String LOADER = "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__";
    private static final long LOADER_BASE_NS = 200_000;

    /**
     * What to write.
     *
     * @param ranks              world size
     * @param steps              steps per rank (the template's steps, cycled); 0 = as many as the template has
     * @param jitterPct          each rank's work per step varies by up to this much (uniform, ±)
     * @param straggler          rank whose work is slower, or -1
     * @param stragglerSlowdownPct how much slower (20 = its compute takes 1.2×)
     * @param slowLoader         rank whose DataLoader call takes {@code loaderDelayMs} longer, or -1
     * @param loaderDelayMs      the extra data-loading time on that rank
     * @param dataLoader         begin every step with a DataLoader call (needed for {@code slowLoader})
     * @param commSlowdownPct    transfers take this much longer (a slow link on {@code commSlowRank} slows the ring)
     * @param commSlowRank       the rank whose link is slow (recorded only; a ring runs at its slowest link), or -1
     * @param seed               random seed: the same spec writes the same files
     * @param gzip               write {@code rank-N.json.gz} instead of {@code rank-N.json}
     */
    public record Spec(int ranks, int steps, double jitterPct, int straggler, double stragglerSlowdownPct,
                       int slowLoader, double loaderDelayMs, boolean dataLoader, double commSlowdownPct,
                       int commSlowRank, long seed, boolean gzip) {
        public static Spec of(int ranks) {
            return new Spec(ranks, 0, 2.0, -1, 0, -1, 0, false, 0, -1, 1, false);
        }

        public Spec withStraggler(int rank, double slowdownPct) {
            return new Spec(ranks, steps, jitterPct, rank, slowdownPct, slowLoader, loaderDelayMs, dataLoader,
                    commSlowdownPct, commSlowRank, seed, gzip);
        }

        public Spec withSlowLoader(int rank, double delayMs) {
            return new Spec(ranks, steps, jitterPct, straggler, stragglerSlowdownPct, rank, delayMs, true,
                    commSlowdownPct, commSlowRank, seed, gzip);
        }

        public Spec withCommSlowdown(int rank, double pct) {
            return new Spec(ranks, steps, jitterPct, straggler, stragglerSlowdownPct, slowLoader, loaderDelayMs,
                    dataLoader, pct, rank, seed, gzip);
        }

        public Spec withSteps(int n) {
            return new Spec(ranks, n, jitterPct, straggler, stragglerSlowdownPct, slowLoader, loaderDelayMs, dataLoader,
                    commSlowdownPct, commSlowRank, seed, gzip);
        }

        public Spec withSeed(long s) {
            return new Spec(ranks, steps, jitterPct, straggler, stragglerSlowdownPct, slowLoader, loaderDelayMs, dataLoader,
                    commSlowdownPct, commSlowRank, s, gzip);
        }

        public Spec gzipped(boolean g) {
            return new Spec(ranks, steps, jitterPct, straggler, stragglerSlowdownPct, slowLoader, loaderDelayMs, dataLoader,
                    commSlowdownPct, commSlowRank, seed, g);
        }
    }

    /** One template event: its step, times, and its JSON without {@code ts}/{@code dur}. */
    private record Event(int step, long ts, long dur, boolean hasDur, int comm, String rest, boolean stepMarker) {
    }

    /** One template step: its window and its communication kernels in start order. */
    private record Step(int number, long start, long end, long[] commStart, long[] commEnd, long lastCommEnd) {
    }

    private final JsonNode root;
    private final List<Event> events = new ArrayList<>();
    private final List<Step> steps = new ArrayList<>();
    private final List<String> metadata = new ArrayList<>();
    private final String stepPid;
    private final String stepTid;

    private KinetoJobGenerator(JsonNode root, int worldSize) {
        this.root = root;
        JsonNode evs = root.isArray() ? root : root.path("traceEvents");
        List<long[]> windows = new ArrayList<>();
        String pid = "0";
        String tid = "0";
        for (JsonNode e : evs) {
            Matcher m = STEP.matcher(e.path("name").asText(""));
            String cat = e.path("cat").asText("").toLowerCase(Locale.ROOT);
            if (m.matches() && (cat.equals("user_annotation") || cat.equals("operator") || cat.equals("cpu_op"))) {
                long ts = ns(e.path("ts"));
                windows.add(new long[] {Long.parseLong(m.group(1)), ts, ts + ns(e.path("dur"))});
                pid = e.path("pid").asText();
                tid = e.path("tid").asText();
            }
        }
        if (windows.isEmpty()) throw new IllegalArgumentException("the template has no ProfilerStep#N annotations");
        windows.sort((a, b) -> Long.compare(a[1], b[1]));
        stepPid = pid;
        stepTid = tid;
        int k = windows.size();
        long[] starts = new long[k];
        for (int i = 0; i < k; i++) starts[i] = windows.get(i)[1];
        long lastEnd = windows.get(k - 1)[2];
        List<List<long[]>> comms = new ArrayList<>();
        for (int i = 0; i < k; i++) comms.add(new ArrayList<>());
        List<Object[]> pending = new ArrayList<>();
        for (JsonNode e : evs) {
            if (!e.has("ts")) {
                metadata.add(e.toString());
                continue;
            }
            long ts = ns(e.path("ts"));
            int step = stepOf(starts, lastEnd, ts);
            if (step < 0) continue;
            String cat = e.path("cat").asText("").toLowerCase(Locale.ROOT);
            boolean comm = isCollective(cat, e.path("name").asText(""));
            long dur = e.has("dur") ? ns(e.path("dur")) : 0;
            long[] span = comm ? new long[] {ts, ts + dur, -1} : null;
            if (comm) comms.get(step).add(span);
            pending.add(new Object[] {e, step, ts, dur, span});
        }
        for (int i = 0; i < k; i++) {
            List<long[]> c = comms.get(i);
            c.sort((a, b) -> Long.compare(a[0], b[0]));
            long[] cs = new long[c.size()];
            long[] ce = new long[c.size()];
            long last = Long.MIN_VALUE;
            for (int j = 0; j < c.size(); j++) {
                cs[j] = c.get(j)[0];
                ce[j] = c.get(j)[1];
                c.get(j)[2] = j;
                last = Math.max(last, ce[j]);
            }
            long end = i + 1 < k ? starts[i + 1] : lastEnd;
            steps.add(new Step((int) windows.get(i)[0], starts[i], end, cs, ce, last));
        }
        for (Object[] p : pending) {
            JsonNode e = (JsonNode) p[0];
            int step = (int) p[1];
            int commIndex = p[4] == null ? -1 : (int) ((long[]) p[4])[2];
            boolean marker = STEP.matcher(e.path("name").asText("")).matches();
            events.add(new Event(step, (long) p[2], (long) p[3], e.has("dur"), commIndex, rest((ObjectNode) e, worldSize, marker), marker));
        }
    }

    /**
     * A collective the job's ranks meet in: an NCCL kernel, or the work range of a collective run on the host
     * ({@code gloo:all_reduce} on a Gloo worker thread; its {@code gpu_user_annotation} copy is not one).
     */
    private static boolean isCollective(String cat, String name) {
        if (cat.equals("kernel")) return name.toLowerCase(Locale.ROOT).contains("nccl");
        return (cat.equals("user_annotation") || cat.equals("cpu_op")) && (name.startsWith("gloo:") || name.startsWith("mpi:"));
    }

    private static int stepOf(long[] starts, long lastEnd, long ts) {
        if (ts < starts[0] || ts >= lastEnd) return -1;
        int i = java.util.Arrays.binarySearch(starts, ts);
        return i >= 0 ? i : -i - 2;
    }

    /** The event's JSON members other than {@code ts} and {@code dur} (and a step marker's name), the world size in its metadata. */
    private static String rest(ObjectNode e, int worldSize, boolean marker) {
        ObjectNode copy = e.deepCopy();
        copy.remove("ts");
        copy.remove("dur");
        if (marker) copy.remove("name");
        JsonNode args = copy.get("args");
        if (args instanceof ObjectNode a) {
            if (a.has("Group size")) a.put("Group size", worldSize);
            if (a.has("Process Group Ranks")) a.put("Process Group Ranks", "[0, ..., " + (worldSize - 1) + "]");
            if (a.has("Rank")) a.remove("Rank");
        }
        String json = copy.toString();
        return json.length() <= 2 ? "" : json.substring(1, json.length() - 1);
    }

    /** Writes {@code spec.ranks()} traces into {@code outDir} and returns their paths, by rank. */
    public static List<Path> write(Path template, Path outDir, Spec spec) throws IOException {
        JsonNode root;
        try (InputStream in = open(template)) {
            root = new ObjectMapper(JsonFactory.builder().build()).readTree(in);
        }
        return new KinetoJobGenerator(root, spec.ranks()).writeAll(outDir, spec);
    }

    private List<Path> writeAll(Path outDir, Spec spec) throws IOException {
        Files.createDirectories(outDir);
        int n = spec.ranks();
        int total = spec.steps() > 0 ? spec.steps() : steps.size();
        long[][] stepStart = new long[total + 1][];
        // per output step: every rank's stretch factor, lead (data loading), and where its events go
        double[][] factor = new double[total][n];
        long[][] lead = new long[total][n];
        long[][] tailShift = new long[total][n];
        long[][][] commStart = new long[total][][];
        long[][] commEnd = new long[total][];
        long t = steps.get(0).start();
        long[] starts = new long[total + 1];
        for (int j = 0; j < total; j++) {
            Step s = steps.get(j % steps.size());
            starts[j] = t;
            int c = s.commStart().length;
            commStart[j] = new long[n][c];
            commEnd[j] = new long[c];
            for (int r = 0; r < n; r++) {
                // SplittableRandom mixes its seed: java.util.Random's first draws from nearby seeds are almost
                // equal, which made each rank's "per-step" jitter the same in every step
                SplittableRandom rnd = new SplittableRandom(spec.seed() * 1_000_003L + r * 7919L + j);
                double f = 1 + spec.jitterPct() / 100.0 * (2 * rnd.nextDouble() - 1);
                if (r == spec.straggler()) f *= 1 + spec.stragglerSlowdownPct() / 100.0;
                factor[j][r] = f;
                lead[j][r] = !spec.dataLoader() ? 0
                        : LOADER_BASE_NS + (r == spec.slowLoader() ? Math.round(spec.loaderDelayMs() * 1e6) : 0);
            }
            double transferScale = 1 + spec.commSlowdownPct() / 100.0;
            long previousEnd = Long.MIN_VALUE;
            for (int x = 0; x < c; x++) {
                long latest = Long.MIN_VALUE;
                for (int r = 0; r < n; r++) {
                    long arrival = lead[j][r] + Math.round(factor[j][r] * (s.commStart()[x] - s.start()));
                    long st = Math.max(arrival, previousEnd);
                    commStart[j][r][x] = st;
                    latest = Math.max(latest, st);
                }
                long transfer = Math.round((s.commEnd()[x] - s.commStart()[x]) * transferScale);
                commEnd[j][x] = latest + transfer;
                previousEnd = commEnd[j][x];
            }
            long length = 0;
            for (int r = 0; r < n; r++) {
                long shift = 0;
                if (c > 0) {
                    long natural = lead[j][r] + Math.round(factor[j][r] * (s.lastCommEnd() - s.start()));
                    shift = Math.max(0, commEnd[j][c - 1] - natural);
                }
                tailShift[j][r] = shift;
                length = Math.max(length, lead[j][r] + Math.round(factor[j][r] * (s.end() - s.start())) + shift);
            }
            t += length;
        }
        starts[total] = t;
        List<Path> out = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            Path file = outDir.resolve("rank-" + r + (spec.gzip() ? ".json.gz" : ".json"));
            writeRank(file, r, spec, total, starts, factor, lead, tailShift, commStart, commEnd);
            out.add(file);
        }
        return out;
    }

    private void writeRank(Path file, int rank, Spec spec, int total, long[] starts, double[][] factor, long[][] lead,
                           long[][] tailShift, long[][][] commStart, long[][] commEnd) throws IOException {
        SplittableRandom clock = new SplittableRandom(spec.seed() * 31 + rank);
        long clockOffsetNs = (long) ((clock.nextDouble() * 10 - 5) * 1e9); // hosts' clocks differ by seconds
        boolean relative = root.isObject() && root.has("baseTimeNanoseconds");
        long tsOffset = relative ? 0 : clockOffsetNs;
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16);
             OutputStream os = spec.gzip() ? new GZIPOutputStream(raw, 1 << 16) : raw;
             Writer w = new java.io.BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8), 1 << 16)) {
            w.write("{");
            writeTopLevel(w, rank, spec.ranks(), relative ? root.path("baseTimeNanoseconds").asLong() + clockOffsetNs : 0);
            w.write("\"traceEvents\":[\n");
            boolean first = true;
            for (String m : metadata) {
                w.write(first ? "" : ",\n");
                w.write(m);
                first = false;
            }
            int firstNumber = steps.get(0).number();
            for (int j = 0; j < total; j++) {
                int k = j % steps.size();
                Step s = steps.get(k);
                long base = starts[j] + tsOffset;
                if (lead[j][rank] > 0) {
                    w.write(first ? "" : ",\n");
                    first = false;
                    w.write("{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"" + LOADER + "\",\"pid\":" + stepPid
                            + ",\"tid\":" + stepTid + ",\"ts\":" + micros(base) + ",\"dur\":" + micros(lead[j][rank]) + "}");
                }
                double f = factor[j][rank];
                long lastRel = s.commStart().length == 0 ? Long.MAX_VALUE : s.lastCommEnd() - s.start();
                for (Event e : events) {
                    if (e.step() != k) continue;
                    w.write(first ? "" : ",\n");
                    first = false;
                    long ts;
                    long dur;
                    if (e.stepMarker()) {
                        ts = base;
                        dur = starts[j + 1] - starts[j];
                        w.write("{\"name\":\"ProfilerStep#" + (firstNumber + j) + "\",");
                    } else if (e.comm() >= 0) {
                        ts = commStart[j][rank][e.comm()] + tsOffset + starts[j];
                        dur = commEnd[j][e.comm()] - commStart[j][rank][e.comm()];
                        w.write("{");
                    } else {
                        long rel = e.ts() - s.start();
                        ts = base + lead[j][rank] + Math.round(f * rel) + (rel >= lastRel ? tailShift[j][rank] : 0);
                        dur = Math.round(f * e.dur());
                        w.write("{");
                    }
                    w.write("\"ts\":");
                    w.write(micros(ts));
                    if (e.hasDur()) {
                        w.write(",\"dur\":");
                        w.write(micros(dur));
                    }
                    if (!e.rest().isEmpty()) {
                        w.write(",");
                        w.write(e.rest());
                    }
                    w.write("}");
                }
            }
            w.write("\n]}\n");
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private void writeTopLevel(Writer w, int rank, int world, long baseTime) throws IOException {
        if (!root.isObject()) return;
        ObjectMapper mapper = new ObjectMapper();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String key = f.getKey();
            JsonNode v = f.getValue();
            if (key.equals("traceEvents") || key.equals("INFO") || key.equals("traceName") || key.equals("trace_id")) continue;
            if (key.equals("distributedInfo")) v = distributed(v, rank, world);
            if (key.equals("baseTimeNanoseconds")) v = mapper.getNodeFactory().numberNode(baseTime);
            w.write(mapper.writeValueAsString(key));
            w.write(":");
            w.write(mapper.writeValueAsString(v));
            w.write(",");
        }
        if (!root.has("distributedInfo")) {
            w.write("\"distributedInfo\":" + mapper.writeValueAsString(distributed(mapper.createObjectNode(), rank, world)) + ",");
        }
    }

    private static JsonNode distributed(JsonNode template, int rank, int world) {
        ObjectNode d = template.isObject() ? ((ObjectNode) template).deepCopy() : new ObjectMapper().createObjectNode();
        if (!d.has("backend")) d.put("backend", "nccl");
        d.put("rank", rank);
        d.put("world_size", world);
        JsonNode pgs = d.get("pg_config");
        if (pgs instanceof ArrayNode a) {
            for (JsonNode pg : a) {
                if (pg instanceof ObjectNode o && "0".equals(o.path("pg_name").asText())) {
                    o.put("pg_size", world);
                    ArrayNode ranks = o.putArray("ranks");
                    for (int r = 0; r < world; r++) ranks.add(r);
                }
            }
        }
        return d;
    }

    /** Nanoseconds as Kineto writes microseconds: {@code 4458676522690.655}. */
    private static String micros(long ns) {
        long us = Math.floorDiv(ns, 1000);
        long frac = Math.floorMod(ns, 1000);
        return us + "." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + frac;
    }

    private static long ns(JsonNode micros) {
        if (micros == null || micros.isMissingNode() || micros.isNull()) return 0;
        return new BigDecimal(micros.asText()).movePointRight(3).setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
    }

    private static InputStream open(Path p) throws IOException {
        InputStream in = Files.newInputStream(p);
        return p.toString().endsWith(".gz") ? new GZIPInputStream(in, 1 << 16) : in;
    }

    static final String USAGE = """
            usage: KinetoJobGenerator TEMPLATE.json[.gz] OUT_DIR --ranks N [options]
              --steps N                steps per rank (default: the template's)
              --jitter PCT             per-rank, per-step variation of the work (default 2)
              --straggler RANK[:PCT]   a rank whose work is PCT% slower (default 20)
              --slow-loader RANK[:MS]  a rank whose DataLoader call takes MS longer (default 30)
              --comm-slowdown RANK[:PCT]  a slow link at RANK: every transfer takes PCT% longer (default 50)
              --seed N --gzip""";

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println(USAGE);
            System.exit(2);
        }
        Spec spec = Spec.of(0);
        int ranks = 0;
        for (int i = 2; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--ranks" -> ranks = Integer.parseInt(args[++i]);
                case "--steps" -> spec = spec.withSteps(Integer.parseInt(args[++i]));
                case "--jitter" -> spec = new Spec(spec.ranks(), spec.steps(), Double.parseDouble(args[++i]), spec.straggler(),
                        spec.stragglerSlowdownPct(), spec.slowLoader(), spec.loaderDelayMs(), spec.dataLoader(),
                        spec.commSlowdownPct(), spec.commSlowRank(), spec.seed(), spec.gzip());
                case "--straggler" -> {
                    String[] p = args[++i].split(":");
                    spec = spec.withStraggler(Integer.parseInt(p[0]), p.length > 1 ? Double.parseDouble(p[1]) : 20);
                }
                case "--slow-loader" -> {
                    String[] p = args[++i].split(":");
                    spec = spec.withSlowLoader(Integer.parseInt(p[0]), p.length > 1 ? Double.parseDouble(p[1]) : 30);
                }
                case "--comm-slowdown" -> {
                    String[] p = args[++i].split(":");
                    spec = spec.withCommSlowdown(Integer.parseInt(p[0]), p.length > 1 ? Double.parseDouble(p[1]) : 50);
                }
                case "--seed" -> spec = spec.withSeed(Long.parseLong(args[++i]));
                case "--gzip" -> spec = spec.gzipped(true);
                default -> {
                    System.err.println("unknown option " + a + "\n" + USAGE);
                    System.exit(2);
                }
            }
        }
        if (ranks <= 0) {
            System.err.println("--ranks N is required\n" + USAGE);
            System.exit(2);
        }
        spec = new Spec(ranks, spec.steps(), spec.jitterPct(), spec.straggler(), spec.stragglerSlowdownPct(),
                spec.slowLoader(), spec.loaderDelayMs(), spec.dataLoader(), spec.commSlowdownPct(), spec.commSlowRank(),
                spec.seed(), spec.gzip());
        long t0 = System.nanoTime();
        List<Path> files = write(Path.of(args[0]), Path.of(args[1]), spec);
        long bytes = 0;
        for (Path f : files) bytes += Files.size(f);
        System.out.printf(Locale.ROOT, "wrote %d ranks to %s in %.1f s: %.1f MB each%n", files.size(), args[1],
                (System.nanoTime() - t0) / 1e9, bytes / 1e6 / files.size());
    }
}
