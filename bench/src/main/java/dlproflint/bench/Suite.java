package dlproflint.bench;

import dlproflint.synth.KinetoTraceScaler;
import dlproflint.synth.NsysExportScaler;
import dlproflint.synth.Workload;
import dlproflint.synth.WorkloadSpec;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * Every figure of docs/benchmarks.md in one run, each next to its floor measured in the same run and its
 * target (issue 12): the whole CLI ({@code ./dlprof-lint}, as users run it) on synthetic nsys exports of 1M
 * and 10M kernel launches against {@code sqlite3} reading and sorting the same tables; on Kineto traces of
 * 100 MB and 1 GB against Python's {@code json.load}; start-up of the commands CI runs most; 64 small
 * profiles in one invocation. Wall time and peak RSS are those of the whole process ({@code /usr/bin/time}).
 * Run it through {@code bench/run.sh}, which installs the floors' tools and builds the jars first.
 */
public final class Suite {
    static final List<String> CASES = List.of("startup", "nsys-1m", "emit-nvtx-1m", "real-export-1m", "kineto-100mb", "many",
            "nsys-10m", "emit-nvtx-10m", "kineto-1gb");
    /** The real export the {@code real-export-1m} case repeats: nsys 2024, a Llama-3 inference loop, NVTX per layer. */
    static final String REAL_TEMPLATE = "../shared/corpus/llama3-inference-nsys2024/real_inference_simulation.sqlite";
    private static final String KINETO_TEMPLATE = "../shared/corpus/kineto-tb-plugin/790be856/tb_plugin/samples/"
            + "resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz";
    private static final String SMALL = "examples/resnet-like-fp32.sqlite";

    private final Path root;
    private final Path out;
    private final int repeat;
    private final int largeRepeat;
    private final boolean clone;
    private final Path cache;
    private final List<Row> rows = new ArrayList<>();

    private Suite(Path root, Path out, int repeat, int largeRepeat, boolean clone) {
        this.root = root;
        this.out = out;
        this.repeat = repeat;
        this.largeRepeat = largeRepeat;
        this.clone = clone;
        this.cache = out.resolve("cache");
    }

    /** One line of the table: a figure (median of the runs), its floor, and the target it is held to. */
    record Row(String what, int runs, Proc.Spread wall, double cpuS, double rssMb, String floorName,
               Proc.Spread floor, double ratio, String target, Boolean met) {
    }

    public static void main(String[] args) throws Exception {
        int repeat = 3;
        int largeRepeat = 1;
        boolean clone = true;
        Set<String> only = new LinkedHashSet<>(CASES);
        Path out = Path.of("bench-out");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--large-repeat" -> largeRepeat = Integer.parseInt(args[++i]);
                case "--no-clone" -> clone = false;
                case "--out" -> out = Path.of(args[++i]);
                case "--only" -> {
                    only = new LinkedHashSet<>(List.of(args[++i].split(",")));
                    if (!CASES.containsAll(only)) usage("unknown case in " + only + "; cases: " + CASES);
                }
                default -> usage("unknown argument " + args[i]);
            }
        }
        Path root = Path.of("").toAbsolutePath();
        if (!Files.isRegularFile(root.resolve("dlprof-lint"))) usage("run from the repository root (./dlprof-lint not found)");
        Files.createDirectories(out);
        Suite s = new Suite(root, out.toAbsolutePath(), repeat, largeRepeat, clone);
        s.header();
        for (String c : CASES) {
            if (!only.contains(c)) continue;
            switch (c) {
                case "startup" -> s.startup();
                case "nsys-1m" -> s.nsys("nsys-1m", WorkloadSpec.benchmark1M(), false, 0);
                case "nsys-10m" -> s.nsys("nsys-10m", WorkloadSpec.benchmark1M().toBuilder().iterations(10_000).build(), true, 0);
                // issue 25: the shape of a user's emit_nvtx export (NVTX stored when ranges end, text per op and seq)
                case "emit-nvtx-1m" -> s.nsys("emit-nvtx-1m", WorkloadSpec.emitNvtx(5_000), false, 300);
                case "emit-nvtx-10m" -> s.nsys("emit-nvtx-10m", WorkloadSpec.emitNvtx(50_000), true, 600);
                // issue 25: a real export's shape (nsys 2024.x, a Llama-3 inference loop) repeated to 1M kernels
                case "real-export-1m" -> s.realExport("real-export-1m", 1_000_000, 300);
                case "kineto-100mb" -> s.kineto("kineto-100mb", 100, false);
                case "kineto-1gb" -> s.kineto("kineto-1gb", 1000, true);
                case "many" -> s.many();
                default -> throw new IllegalStateException(c);
            }
        }
        s.printTable();
    }

    private static void usage(String problem) {
        System.err.println("Suite: " + problem);
        System.err.println("usage: bench/run.sh [--only " + String.join(",", CASES) + "] [--repeat N] [--large-repeat N] "
                + "[--no-clone] [--out DIR]");
        System.exit(2);
    }

    private void header() throws Exception {
        String commit = Proc.check(root, List.of("git", "rev-parse", "--short", "HEAD")).strip();
        String dirty = Proc.check(root, List.of("git", "status", "--porcelain", "--untracked-files=no")).isBlank() ? "" : " (+ uncommitted changes)";
        System.out.printf(Locale.ROOT, "dlprof-lint benchmark, %s, commit %s%s%n", Instant.now().truncatedTo(ChronoUnit.SECONDS),
                commit, dirty);
        System.out.printf(Locale.ROOT, "%d CPUs, load average %s, Java %s, %s, %s%n", Runtime.getRuntime().availableProcessors(),
                load(), System.getProperty("java.version"), Proc.check(root, List.of("sqlite3", "--version")).split(" ")[0].strip()
                        .transform(v -> "sqlite3 " + v), Proc.check(root, List.of("python3", "--version")).strip());
        System.out.println("launcher options: " + System.getenv().getOrDefault("DLPROF_LINT_JAVA_OPTS", "(the launcher's defaults)"));
        System.out.println();
    }

    private static String load() {
        double l = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return l < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", l);
    }

    // ------------------------------------------------------------------------------------------- nsys

    /**
     * One nsys export linted by the whole CLI, against two floors measured in the same run: the {@code sqlite3}
     * shell reading and sorting the three tables with minimal columns ({@link NsysFloor#MINIMAL}, what the targets
     * are held to) and with every column the reader needs ({@link NsysFloor#SQL}, shown beside it).
     *
     * @param rssMb the RSS target (0: the case's older target, ≤ 60 s and 1 GB for the 10M case)
     */
    private void nsys(String name, WorkloadSpec spec, boolean large, int rssMb) throws Exception {
        Path file = out.resolve(name + ".sqlite");
        if (!Files.exists(file)) {
            log("generating " + file + " (" + spec.expectedKernels() + " kernel launches)");
            Workload.generate(spec, file);
        }
        nsys(name, file, spec.stepMarkers() == WorkloadSpec.StepMarkers.NONE, large, rssMb);
    }

    /** A corpus export ({@link #REAL_TEMPLATE}) repeated to {@code kernels} kernels ({@link NsysExportScaler}). */
    private void realExport(String name, long kernels, int rssMb) throws Exception {
        Path file = out.resolve(name + ".sqlite");
        if (!Files.exists(file)) {
            Path template = root.resolve(REAL_TEMPLATE);
            if (!Files.exists(template)) {
                log("skipping " + name + ": template export " + REAL_TEMPLATE + " not found");
                return;
            }
            log("generating " + file + " (" + kernels + " kernels from " + template.getFileName() + ")");
            NsysExportScaler.scale(template, file, kernels);
        }
        nsys(name, file, false, false, rssMb);
    }

    private void nsys(String name, Path file, boolean keyNode, boolean large, int rssMb) throws Exception {
        int runs = large ? largeRepeat : repeat;
        List<Proc.Run> floor = runs(runs, () -> Proc.time(root, Map.of(), List.of("sqlite3", "-readonly", file.toString(),
                NsysFloor.MINIMAL)));
        List<Proc.Run> wide = runs(runs, () -> Proc.time(root, Map.of(), List.of("sqlite3", "-readonly", file.toString(),
                NsysFloor.SQL)));
        Path report = out.resolve(name + ".report.json");
        List<String> args = new ArrayList<>(List.of(file.toString(), "--fail-on", "none", "--report", "json=" + report));
        if (keyNode) args.addAll(List.of("--key-node", "aten::to"));
        List<Proc.Run> lint = runs(runs, () -> lint(args));
        Proc.Spread f = spread(floor, Proc.Run::wallS);
        Proc.Spread w = spread(lint, Proc.Run::wallS);
        double rss = max(lint, Proc.Run::rssMb);
        String what = name + " (" + mb(file) + ") whole CLI lint";
        String floorName = String.format(Locale.ROOT, "sqlite3 read+sort, minimal columns (all columns: %.2f s)",
                spread(wide, Proc.Run::wallS).median());
        if (rssMb == 0 && large) {
            boolean met = w.median() <= 60 && rss <= 1024;
            rows.add(new Row(what, runs, w, median(lint, Proc.Run::cpuS), rss, floorName, f, w.median() / f.median(),
                    "≤ 60 s, RSS ≤ 1 GB", met));
        } else if (rssMb == 0) {
            rows.add(new Row(what, runs, w, median(lint, Proc.Run::cpuS), rss, floorName, f, w.median() / f.median(),
                    "≤ 3× floor", w.median() <= 3 * f.median()));
        } else {
            rows.add(new Row(what, runs, w, median(lint, Proc.Run::cpuS), rss, floorName, f, w.median() / f.median(),
                    "≤ 3× floor, RSS ≤ " + rssMb + " MB", w.median() <= 3 * f.median() && rss <= rssMb));
        }
    }

    // ------------------------------------------------------------------------------------------- Kineto

    private void kineto(String name, int sizeMb, boolean large) throws Exception {
        Path file = out.resolve(name + ".json");
        if (!Files.exists(file)) {
            Path template = root.resolve(KINETO_TEMPLATE);
            if (!Files.exists(template)) {
                log("skipping " + name + ": template trace " + KINETO_TEMPLATE + " not found");
                return;
            }
            log("generating " + file + " (" + sizeMb + " MB from " + template.getFileName() + ")");
            KinetoTraceScaler.scale(template, file, (long) sizeMb << 20);
        }
        int runs = large ? largeRepeat : repeat;
        List<Proc.Run> floor = runs(runs, () -> Proc.time(root, Map.of(), List.of("python3", "-c",
                "import json, sys\nwith open(sys.argv[1], 'rb') as f: json.load(f)", file.toString())));
        Path report = out.resolve(name + ".report.json");
        List<Proc.Run> lint = runs(runs, () -> lint(List.of(file.toString(), "--fail-on", "none", "--report", "json=" + report)));
        Proc.Spread f = spread(floor, Proc.Run::wallS);
        Proc.Spread w = spread(lint, Proc.Run::wallS);
        double rss = max(lint, Proc.Run::rssMb);
        rows.add(new Row(name + " (" + mb(file) + ") whole CLI lint", runs, w, median(lint, Proc.Run::cpuS), rss,
                "python3 json.load (RSS " + Math.round(max(floor, Proc.Run::rssMb)) + " MB)", f, w.median() / f.median(),
                "≤ 0.5× floor, RSS ≤ 512 MB", w.median() <= 0.5 * f.median() && rss <= 512));
    }

    // ------------------------------------------------------------------------------------------- start-up

    private void startup() throws Exception {
        runs(1, () -> lint(List.of(SMALL, "--fail-on", "none"))); // warms the compiled-pack cache and the OS file cache
        // the floor of start-up (issue 25): the JVM alone, measured in the same run
        List<Proc.Run> jvm = runs(Math.max(repeat, 5), () -> Proc.time(root, Map.of(), List.of("java", "-version")));
        Proc.Spread floor = spread(jvm, Proc.Run::wallS);
        startupRow("dlprof-lint --version", List.of("--version"), floor);
        startupRow("dlprof-lint --help", List.of("--help"), floor);
        startupRow("dlprof-lint rules list", List.of("rules", "list"), floor);
        startupRow("dlprof-lint rules explain dlprof/amp-not-used", List.of("rules", "explain", "dlprof/amp-not-used"), floor);
        startupRow("lint " + SMALL + " (warm)", List.of(SMALL, "--fail-on", "none"), null);
        firstRun();
    }

    /** A command's start-up against {@code java -version} (≤ 2× it), or a lint's against 1.0 s ({@code floor} null). */
    private void startupRow(String what, List<String> args, Proc.Spread floor) throws Exception {
        int runs = Math.max(repeat, 5);
        List<Proc.Run> r = runs(runs, () -> lint(args));
        Proc.Spread w = spread(r, Proc.Run::wallS);
        if (floor == null) {
            rows.add(new Row(what, runs, w, median(r, Proc.Run::cpuS), max(r, Proc.Run::rssMb), "", null, Double.NaN,
                    "≤ 1.0 s", w.median() <= 1.0));
        } else {
            rows.add(new Row(what, runs, w, median(r, Proc.Run::cpuS), max(r, Proc.Run::rssMb), "java -version", floor,
                    w.median() / floor.median(), "≤ 2× floor", w.median() <= 2 * floor.median()));
        }
    }

    /**
     * A fresh clone's first run: clone the committed tree, build it as the README says (not timed), then lint
     * the example with an empty compiled-pack cache. Without a clone ({@code --no-clone}), the empty cache only.
     */
    private void firstRun() throws Exception {
        Path dir = root;
        Path tmp = null;
        String what = "lint " + SMALL + ", first run, empty cache";
        if (clone) {
            tmp = Files.createTempDirectory("dlprof-lint-fresh-clone");
            Path c = tmp.resolve("dlprof-lint");
            log("cloning and building a fresh clone in " + c + " (not timed)");
            Proc.check(root, List.of("git", "clone", "-q", root.toString(), c.toString()));
            try {
                Proc.check(c, List.of("mvn", "-B", "-q", "-o", "package", "-DskipTests"));
            } catch (IOException offlineFailed) {
                Proc.check(c, List.of("mvn", "-B", "-q", "package", "-DskipTests"));
            }
            dir = c;
            what = "lint " + SMALL + ", fresh clone's first run";
        }
        try {
            List<Proc.Run> r = new ArrayList<>();
            for (int i = 0; i < Math.max(repeat, 3); i++) {
                Path empty = Files.createTempDirectory("dlprof-lint-empty-cache");
                Path d = dir;
                r.addAll(runs(1, () -> Proc.time(d, Map.of("DLPROF_LINT_CACHE_DIR", empty.toString()),
                        List.of("./dlprof-lint", SMALL, "--fail-on", "none"))));
                deleteTree(empty);
            }
            Proc.Spread w = spread(r, Proc.Run::wallS);
            rows.add(new Row(what, r.size(), w, median(r, Proc.Run::cpuS), max(r, Proc.Run::rssMb), "", null, Double.NaN,
                    "≤ 2.5 s", w.median() <= 2.5));
        } finally {
            if (tmp != null) deleteTree(tmp);
        }
    }

    // ------------------------------------------------------------------------------------------- many profiles

    /**
     * 64 small profiles in one invocation against the slowest of them linted alone: the target is
     * 1.5 × slowest single × 64 / cores.
     */
    private void many() throws Exception {
        List<Path> kinds = new ArrayList<>();
        for (String p : List.of(SMALL, "../shared/corpus/mohanadodema-dlprof/w_Relu/nsys_profile.sqlite",
                "../shared/corpus/mohanadodema-dlprof/root/nsys_profile.sqlite",
                "../shared/corpus/cutlass-bench-nsys2023/report1.sqlite", KINETO_TEMPLATE)) {
            if (Files.exists(root.resolve(p))) kinds.add(root.resolve(p));
        }
        Path dir = out.resolve("many");
        deleteTree(dir);
        Files.createDirectories(dir);
        List<String> files = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            Path src = kinds.get(i % kinds.size());
            String n = src.getFileName().toString();
            Path dst = dir.resolve(String.format(Locale.ROOT, "p%02d-%s", i, n));
            Files.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
            files.add(dst.toString());
        }
        double slowest = 0;
        String slowestName = "";
        for (int k = 0; k < kinds.size(); k++) {
            String f = files.get(k);
            List<Proc.Run> r = runs(repeat, () -> lint(List.of(f, "--fail-on", "none", "--report", "json=" + dir.resolve("one.json"))));
            double m = spread(r, Proc.Run::wallS).median();
            if (m > slowest) {
                slowest = m;
                slowestName = kinds.get(k).getFileName().toString();
            }
        }
        List<String> args = new ArrayList<>(files);
        args.addAll(List.of("--fail-on", "none", "--report", "json=" + dir.resolve("all.json")));
        List<Proc.Run> all = runs(repeat, () -> lint(args));
        Proc.Spread w = spread(all, Proc.Run::wallS);
        int cores = Runtime.getRuntime().availableProcessors();
        double bound = 1.5 * slowest * 64 / cores;
        rows.add(new Row("64 small profiles (" + kinds.size() + " kinds) in one invocation; CPU/wall "
                + String.format(Locale.ROOT, "%.2f", median(all, Proc.Run::cpuS) / w.median()), repeat, w,
                median(all, Proc.Run::cpuS), max(all, Proc.Run::rssMb),
                "slowest single (" + slowestName + ") × 64 / " + cores, new Proc.Spread(slowest * 64 / cores, slowest * 64 / cores,
                slowest * 64 / cores), w.median() / (slowest * 64 / cores), "≤ 1.5× floor", w.median() <= bound));
    }

    // ------------------------------------------------------------------------------------------- helpers

    @FunctionalInterface
    private interface Measure {
        Proc.Run run() throws Exception;
    }

    private List<Proc.Run> runs(int n, Measure m) throws Exception {
        List<Proc.Run> r = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Proc.Run run = m.run();
            if (run.exit() != 0) throw new IOException("exit " + run.exit() + ": " + Proc.tail(run.output()));
            r.add(run);
        }
        return r;
    }

    private Proc.Run lint(List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("./dlprof-lint"));
        cmd.addAll(args);
        Proc.Run r = Proc.time(root, Map.of("DLPROF_LINT_CACHE_DIR", cache.toString()), cmd);
        log(String.format(Locale.ROOT, "%.2f s wall, %.2f s CPU, %.0f MB: dlprof-lint %s", r.wallS(), r.cpuS(), r.rssMb(),
                String.join(" ", args).replace(root + "/", "")));
        return r;
    }

    private static Proc.Spread spread(List<Proc.Run> runs, ToDoubleFunction<Proc.Run> f) {
        return Proc.Spread.of(runs.stream().map(f::applyAsDouble).toList());
    }

    private static double median(List<Proc.Run> runs, ToDoubleFunction<Proc.Run> f) {
        return spread(runs, f).median();
    }

    private static double max(List<Proc.Run> runs, ToDoubleFunction<Proc.Run> f) {
        return runs.stream().mapToDouble(f).max().orElse(0);
    }

    private static String mb(Path f) throws IOException {
        long b = Files.size(f);
        return b >= 1L << 30 ? String.format(Locale.ROOT, "%.2f GB", b / (double) (1L << 30))
                : String.format(Locale.ROOT, "%d MB", b >> 20);
    }

    private static void log(String s) {
        System.err.println("bench: " + s);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> w = Files.walk(dir)) {
            for (Path p : w.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    private void printTable() throws IOException {
        StringBuilder b = new StringBuilder();
        b.append("| what | runs | wall (median, min–max) | CPU | peak RSS | floor | floor wall | ratio | target | met |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "| %s | %d | %s | %.2f s | %.0f MB | %s | %s | %s | %s | %s |%n", r.what(), r.runs(),
                    r.wall().seconds(), r.cpuS(), r.rssMb(), r.floorName(), r.floor() == null ? "" : r.floor().seconds(),
                    Double.isNaN(r.ratio()) ? "" : String.format(Locale.ROOT, "%.2f×", r.ratio()), r.target(),
                    r.met() == null ? "" : r.met() ? "yes" : "**no**"));
        }
        b.append(String.format(Locale.ROOT, "%nload average at the end: %s%n", load()));
        System.out.println(b);
        Files.writeString(out.resolve("results.md"), b.toString(), StandardCharsets.UTF_8);
    }
}
