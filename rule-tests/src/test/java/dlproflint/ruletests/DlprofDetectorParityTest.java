package dlproflint.ruletests;

import dlproflint.engine.LintEngine;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.Finding;
import dlproflint.testing.Corpus;
import dlproflint.testing.SqliteVariant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * For every DLProf database in the corpus, and for variants made from each (kernel rows deleted as in a live
 * capture or TensorFlow 1 mode, only DLProf's aggregates left, an older/partial schema, another mode, a live capture
 * with no GPU activity recorded at all), every verdict DLProf stored ({@code expert_systems_feedback}, read here,
 * never by the reader) against the {@code dlprof} pack's findings, verdict by verdict: the finding that states it
 * with the same numbers (the op count, the utilization and the top non-GPU share, the idle device ids, the memory
 * share, the key op), or the documented reason ours differs ({@link #REASONS}, also in {@code docs/dlprof-parity.md}).
 * {@code No DALI ops detected} is aside (not a problem, see {@code dataloader-bound.md}); a {@code dlprof/} finding DLProf
 * has no verdict for must be a documented extra. A variant that changes what DLProf would have concluded changes the
 * stored verdicts with it (the statements that made the variant also rewrite {@code expert_systems_feedback}), so the
 * verdicts are always read from the database under test. The {@code nsys} pack (nsys analyze's checks, which DLProf
 * never had) is not part of the comparison. The table of every verdict and its outcome is printed.
 */
class DlprofDetectorParityTest {
    /** DLProf detector id → our rule (DLProf 1.8 ids as its databases record them; docs/dlprof-parity.md). */
    static final Map<String, String> DETECTORS = Map.of(
            "amp_detector", "dlprof/amp-not-used",
            "underutilized_gpu_detector", "dlprof/underutilized-gpu",
            "no_iterations_detector", "dlprof/no-iterations",
            "batch_size_detector", "dlprof/small-batch-size",
            "no_fusion_detector", "dlprof/xla-not-enabled",
            "dataloader_detector", "dlprof/dataloader-bound",
            "cudnn_benchmark_detector", "dlprof/cudnn-benchmark-off");

    /** Where ours differs from DLProf's verdict on purpose: the key a test outcome names, and why. */
    static final Map<String, String> REASONS = Map.of(
            "dali", "not a problem: DLProf suggests DALI whenever no DALI op ran (dataloader-bound.md)",
            "copies-count-as-use", "a GPU that ran copies or memsets is used; DLProf counted kernels only",
            "utilization-beside-idle-gpus", "with idle GPUs DLProf states only those; the low utilization of the ones"
                    + " that ran holds as well and is reported",
            "memory-per-gpu", "GPU memory is judged per GPU; DLProf printed one share");

    private static LintEngine engine;
    private static ProfileReaders readers;
    private static final List<String> TABLE = new ArrayList<>();

    @TempDir
    static Path dir;

    @BeforeAll
    static void load() throws Exception {
        engine = AllPacks.builtin();
        readers = AllPacks.readers();
    }

    @AfterAll
    static void printTable() {
        System.out.println("DLProf's verdicts and ours (" + TABLE.size() + " verdicts):\n  " + String.join("\n  ", TABLE));
    }

    /** A variant: what it changes; its statements may rewrite DLProf's stored verdicts to what DLProf would store. */
    record Variant(String name, List<String> sql) {
    }

    /** DLProf's row for a detector, as its feedback table holds it. */
    private static String feedback(String detector, String problem, String recommendation) {
        return "INSERT INTO expert_systems_feedback (aggr_id, exp_sys_id, problem, recommendation, javascript_function,"
                + " javascript_args) VALUES (1, '" + detector + "', '" + problem + "', '" + recommendation + "', '', '')";
    }

    static List<Variant> variants(Path db, boolean pytorch) throws Exception {
        List<Variant> v = new ArrayList<>();
        v.add(new Variant("as DLProf wrote it", List.of()));
        v.add(new Variant("kernel rows deleted (live capture / TensorFlow 1 mode)", List.of(
                "DELETE FROM read_only_kernels", "DELETE FROM kernel_iteration_node")));
        v.add(new Variant("only DLProf's aggregates (no kernel, copy, set or API rows)", List.of(
                "DELETE FROM read_only_kernels", "DELETE FROM kernel_iteration_node", "DELETE FROM read_only_memcpys",
                "DELETE FROM read_only_memsets", "DELETE FROM read_only_cuda_calls", "DELETE FROM read_only_cuda_syncs")));
        List<String> older = new ArrayList<>(SqliteVariant.dropViews(db));
        older.addAll(List.of("DROP TABLE db_version", "DROP TABLE iteration_aggregation_list", "DROP TABLE kernel_iteration_stats",
                "DROP TABLE kernel_iteration_node", "DROP TABLE group_ops", "DROP TABLE read_only_sub_ops",
                "ALTER TABLE op_nodes DROP COLUMN is_bad_data_type", "ALTER TABLE read_only_ops DROP COLUMN stack_trace",
                "ALTER TABLE model_summary DROP COLUMN io_duration_pct", "ALTER TABLE read_only_system_config DROP COLUMN mode_string"));
        v.add(new Variant("older/partial schema (no db_version, per-iteration tables, some columns)", older));
        String cudnn = feedback("cudnn_benchmark_detector",
                "Convolution operations were detected but torch.backends.cudnn.benchmark was not enabled",
                "Try setting torch.backends.cudnn.benchmark = True");
        if (pytorch) {
            v.add(new Variant("live capture recording cudnn.benchmark off, no kernel rows", List.of(
                    "UPDATE read_only_model_config SET cudnn_benchmark_disabled = 1", "DELETE FROM read_only_kernels",
                    "DELETE FROM kernel_iteration_node", cudnn)));
            // the database: a live capture whose kernel, copy and set rows are empty, whose op and device
            // aggregates hold no GPU time, ops that each ran once, memory in use, cudnn.benchmark recorded off; DLProf
            // stored "The following GPU device IDs are not being used: 0" and the cuDNN verdict (no utilization one)
            v.add(new Variant("live capture without any GPU activity recorded, cudnn.benchmark off", List.of(
                    "UPDATE read_only_model_config SET cudnn_benchmark_disabled = 1", "DELETE FROM read_only_kernels",
                    "DELETE FROM kernel_iteration_node", "DELETE FROM read_only_memcpys", "DELETE FROM read_only_memsets",
                    "DELETE FROM kernel_summaries", "UPDATE op_nodes SET kernel_calls = 0, num_calls = 1",
                    "UPDATE metric SET max = 0, min = 0, sum = 0, avg = 0 WHERE id IN (SELECT gpu_time_metric_id FROM node_time_metrics)",
                    "UPDATE device_gpu_utilizations SET gpu_utilization = 0",
                    "UPDATE model_summary SET gpu_utilization = 0, tc_utilization = 0, tc_duration_pct = 0, non_tc_duration_pct = 0",
                    "DELETE FROM expert_systems_feedback WHERE exp_sys_id = 'underutilized_gpu_detector'",
                    feedback("underutilized_gpu_detector", "The following GPU device IDs are not being used: 0",
                            "Make sure to pass the necessary options to docker, the framework, and the model to use all available GPUs"),
                    cudnn)));
        } else {
            v.add(new Variant("TensorFlow 2 mode, framework column empty", List.of(
                    "UPDATE read_only_system_config SET framework = '', mode_string = 'tensorflow2', mode_enum = 2")));
        }
        return v;
    }

    @TestFactory
    Stream<DynamicTest> everyDlprofVerdictIsOneOfOurFindings() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        int databases = 0;
        for (String rel : Corpus.profiles()) {
            if (!rel.endsWith(".sqlite")) continue;
            Path db = Corpus.file(rel);
            if (!readers.readerFor(db).format().equals("dlprof-db")) continue;
            databases++;
            boolean pytorch = framework(db).toLowerCase().startsWith("pytorch");
            int n = 0;
            for (Variant v : variants(db, pytorch)) {
                int k = n++;
                tests.add(DynamicTest.dynamicTest(rel + " - " + v.name(), () -> {
                    Path file = v.sql().isEmpty() ? db : SqliteVariant.of(db, dir, rel.replace('/', '~') + "-" + k,
                            v.sql().toArray(String[]::new));
                    compare(rel + " (" + v.name() + ")", file);
                }));
            }
        }
        assertTrue(databases >= 5, "the corpus's DLProf databases: " + databases);
        return tests.stream();
    }

    /** One verdict DLProf stored. */
    record Verdict(String detector, String problem, String recommendation) {
    }

    /** What became of a verdict: the finding that states it (or null), and the reason key where ours differs. */
    record Outcome(Finding finding, String reason, String detail) {
        static Outcome agrees(Finding f) {
            return new Outcome(f, null, null);
        }

        static Outcome missing(String detail) {
            return new Outcome(null, null, detail);
        }
    }

    private static void compare(String what, Path file) throws Exception {
        List<Verdict> dlprof = verdicts(file);
        ProfileFacts facts = readers.read(file, ReadOptions.DEFAULT);
        List<Finding> ours = engine.lint(facts).stream().filter(f -> f.ruleId().startsWith("dlprof/")).toList();
        String listing = ours.stream().map(f -> f.ruleId() + " [" + f.subject().ref() + "]: " + f.problem())
                .collect(Collectors.joining("\n  "));
        Set<Finding> claimed = new LinkedHashSet<>();
        Set<String> reasons = new TreeSet<>();
        for (Verdict v : dlprof) {
            assertTrue(DETECTORS.containsKey(v.detector()), "map DLProf detector " + v.detector() + " to its rule");
            Outcome o = match(v, ours, facts);
            assertTrue(o.finding() != null || o.reason() != null, what + ": DLProf's verdict \"" + v.problem()
                    + "\" (" + v.detector() + ") is not one of ours: " + o.detail() + "; ours:\n  " + listing);
            if (o.finding() != null) claimed.add(o.finding());
            if (o.reason() != null) {
                assertTrue(REASONS.containsKey(o.reason()), o.reason());
                reasons.add(o.reason());
            }
            TABLE.add(what + " | " + v.detector() + ": " + v.problem() + " | "
                    + (o.finding() == null ? "-" : o.finding().ruleId() + " [" + o.finding().subject().ref() + "]: " + o.finding().problem())
                    + " | " + (o.reason() == null ? "agrees" : "differs on purpose: " + REASONS.get(o.reason()) + " (" + o.detail() + ")"));
        }
        for (Finding f : ours) {
            if (claimed.contains(f)) continue;
            String extra = extraReason(f, dlprof);
            assertTrue(extra != null, what + ": " + f.ruleId() + " [" + f.subject().ref() + "] \"" + f.problem()
                    + "\" has no DLProf verdict and no documented reason; DLProf's: " + dlprof);
            TABLE.add(what + " | (none) | " + f.ruleId() + " [" + f.subject().ref() + "]: " + f.problem() + " | ours only: "
                    + REASONS.get(extra));
        }
    }

    private static final Pattern AMP = Pattern.compile("(\\d+) ops? (?:was|were) eligible to use tensor cores");
    private static final Pattern UTIL = Pattern.compile("Only ([\\d.]+)% of the profiled time");
    private static final Pattern TOP = Pattern.compile("^(\\w+) has the highest \\(non-GPU\\) usage at ([\\d.]+)%");
    private static final Pattern IDLE = Pattern.compile("The following GPU device IDs are not being used: ([\\d ]+)");
    private static final Pattern MEMORY = Pattern.compile("Only (\\d+)% of GPU Memory is used");
    private static final Pattern KEY_OP = Pattern.compile("key op (\\S+) not found");

    /** The finding of ours that states DLProf's verdict with the same numbers, or why none does. */
    static Outcome match(Verdict v, List<Finding> ours, ProfileFacts facts) {
        String rule = DETECTORS.get(v.detector());
        List<Finding> candidates = ours.stream().filter(f -> f.ruleId().equals(rule)).toList();
        String p = v.problem();
        switch (v.detector()) {
            case "dataloader_detector" -> {
                if (p.equals("No DALI ops detected")) return new Outcome(null, "dali", "aside");
                return first(candidates, f -> true, "no data-loader finding");
            }
            case "amp_detector" -> {
                Matcher m = AMP.matcher(p);
                assertTrue(m.find(), p);
                long n = Long.parseLong(m.group(1));
                return first(candidates, f -> number(f, "eligibleOps") == n, "no AMP finding with " + n + " eligible ops");
            }
            case "underutilized_gpu_detector" -> {
                Matcher idle = IDLE.matcher(p);
                if (idle.find()) return idleGpus(idle.group(1), candidates, facts);
                Matcher u = UTIL.matcher(p);
                Matcher top = TOP.matcher(v.recommendation());
                assertTrue(u.find() && top.find(), p + " / " + v.recommendation());
                double util = Double.parseDouble(u.group(1));
                double share = Double.parseDouble(top.group(2));
                return first(candidates, f -> f.subject().kind().equals("profile")
                        && Math.abs(number(f, "gpuUtilizationPct") - util) < 0.05 + 1e-9
                        && String.valueOf(f.evidence().get("topNonGpuCategory")).equalsIgnoreCase(top.group(1))
                        && Math.abs(number(f, "topNonGpuPct") - share) < 0.05 + 1e-9,
                        "no utilization finding with " + util + "% and " + top.group(1) + " at " + share + "%");
            }
            case "batch_size_detector" -> {
                Matcher m = MEMORY.matcher(p);
                assertTrue(m.find(), p);
                int pct = Integer.parseInt(m.group(1));
                // DLProf printed the share cut to a whole percent
                return first(candidates, f -> (int) Math.floor(number(f, "memoryUsedPct")) == pct,
                        "no GPU with " + pct + "% of its memory in use");
            }
            case "no_iterations_detector" -> {
                Matcher m = KEY_OP.matcher(p);
                String key = m.find() ? m.group(1) : null;
                return first(candidates, f -> key == null || key.equals(String.valueOf(f.evidence().get("keyNode"))),
                        "no no-iterations finding" + (key == null ? "" : " naming key op " + key));
            }
            default -> {
                return first(candidates, f -> true, "no " + rule + " finding");
            }
        }
    }

    /** DLProf's idle GPUs: ours the same, or fewer where each GPU ours counts as used ran copies or memsets. */
    private static Outcome idleGpus(String ids, List<Finding> candidates, ProfileFacts facts) {
        Set<Integer> theirs = Arrays.stream(ids.trim().split("\\s+")).map(Integer::parseInt).collect(Collectors.toCollection(TreeSet::new));
        for (Finding f : candidates) {
            if (!f.subject().ref().equals("gpu:unused")) continue;
            Set<Integer> mine = new TreeSet<>();
            for (Object o : (List<?>) f.evidence().get("unusedDeviceIds")) mine.add(((Number) o).intValue());
            if (mine.equals(theirs)) return Outcome.agrees(f);
            Set<Integer> onlyTheirs = new TreeSet<>(theirs);
            onlyTheirs.removeAll(mine);
            boolean copies = theirs.containsAll(mine) && onlyTheirs.stream().allMatch(d -> facts.gpuUsage().stream()
                    .anyMatch(u -> u.deviceId() == d && u.memoryOpCount() > 0 && u.kernelCount() == 0));
            if (copies) return new Outcome(f, "copies-count-as-use", "GPU " + onlyTheirs + " ran copies or memsets");
            return Outcome.missing("ours lists GPUs " + mine + ", DLProf " + theirs);
        }
        return Outcome.missing("no idle-GPU finding");
    }

    /** Why a finding of ours has no DLProf verdict, or null when nothing documented explains it. */
    private static String extraReason(Finding f, List<Verdict> dlprof) {
        boolean idleVerdict = dlprof.stream().anyMatch(v -> IDLE.matcher(v.problem()).find());
        if (f.ruleId().equals("dlprof/underutilized-gpu") && f.subject().kind().equals("profile") && idleVerdict) {
            return "utilization-beside-idle-gpus";
        }
        boolean memoryVerdict = dlprof.stream().anyMatch(v -> v.detector().equals("batch_size_detector"));
        if (f.ruleId().equals("dlprof/small-batch-size") && memoryVerdict) return "memory-per-gpu";
        return null;
    }

    private static Outcome first(List<Finding> candidates, java.util.function.Predicate<Finding> same, String missing) {
        return candidates.stream().filter(same).findFirst().map(Outcome::agrees).orElse(Outcome.missing(missing));
    }

    private static double number(Finding f, String key) {
        Object v = f.evidence().get(key);
        return v instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** Every row DLProf's expert systems wrote. */
    static List<Verdict> verdicts(Path db) throws Exception {
        List<Verdict> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro&immutable=1");
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT exp_sys_id, problem, recommendation FROM expert_systems_feedback ORDER BY id")) {
            while (rs.next()) out.add(new Verdict(rs.getString(1), rs.getString(2), rs.getString(3)));
        }
        assertFalse(out.isEmpty(), db + " holds DLProf's expert-systems feedback");
        return out;
    }

    private static String framework(Path db) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro&immutable=1");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT framework FROM read_only_system_config")) {
            return rs.next() ? rs.getString(1) : "";
        }
    }

    @org.junit.jupiter.api.Test
    void everyReasonIsDocumented() throws Exception {
        String doc = java.nio.file.Files.readString(AllPacks.repo().resolve("docs/dlprof-parity.md"));
        for (String key : REASONS.keySet()) assertTrue(doc.contains("`" + key + "`"), "docs/dlprof-parity.md explains " + key);
        assertEquals(REASONS.size(), REASONS.values().stream().distinct().count());
        assertTrue(GpuUsage.class.isRecord());
    }
}
