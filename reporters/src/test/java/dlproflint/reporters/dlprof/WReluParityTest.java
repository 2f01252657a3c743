package dlproflint.reporters.dlprof;

import dlproflint.extract.ProfileReader;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parity with DLProf 1.8: our reports of {@code mohanadodema-dlprof/w_Relu/nsys_profile.sqlite}
 * against the reports DLProf computed from that very database ({@code w_Relu/dlprof_*.csv}).
 * Same sections and headers; summary numbers within 1% (percentages within 0.1 point); the
 * detailed, kernel and iteration reports with the same ops, kernels and launches, the same types and
 * calls and times within 1%; tensor-core, op-type and group-op rows likewise. Every mismatch is
 * collected and reported together. Differences that cannot match are listed in
 * {@code docs/dlprof-reports.md} (section Parity) with their reasons, and only those are exempted
 * here, each by name.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WReluParityTest {
    private static final String DIR = "mohanadodema-dlprof/w_Relu/";
    private static final double REL = 0.01;
    private static final Set<DlprofReportKind> DATA_REPORTS =
            EnumSet.complementOf(EnumSet.of(DlprofReportKind.EXPERT_SYSTEMS));

    @TempDir
    static Path out;
    private Path dlprof;

    @BeforeAll
    void writeOurReports() throws Exception {
        Path db = Corpus.file(DIR + "nsys_profile.sqlite");
        dlprof = db.getParent();
        ProfileReaders readers = ProfileReaders.discover();
        if (!readers.formats().contains("nsys-sqlite")) {
            String msg = "no nsys-sqlite reader on the class path (readers: " + readers.formats() + ")";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) throw new AssertionError(msg);
            System.err.println("NOTICE: skipping parity: " + msg);
            Assumptions.abort(msg);
        }
        ProfileReader reader = readers.readerFor(db);
        ProfileFacts facts = reader.read(db, ReadOptions.DEFAULT);
        // expert systems = the rule packs' findings, compared with DLProf's by the rule tests, not here
        DlprofReports.write(facts, reader.instances(db, ReadOptions.DEFAULT), DATA_REPORTS, EnumSet.allOf(DlprofFormat.class), out);
        // -Ddlprof.parity.keep=DIR keeps our reports for a side-by-side look
        String keep = System.getProperty("dlprof.parity.keep");
        if (keep != null) {
            Path k = Files.createDirectories(Path.of(keep));
            try (var files = Files.list(out)) {
                for (Path p : files.toList()) Files.copy(p, k.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private Map<String, DlprofCsv.Section> ours(String name) throws Exception {
        return DlprofCsv.byTitle(out.resolve(name));
    }

    private Map<String, DlprofCsv.Section> theirs(String name) throws Exception {
        return DlprofCsv.byTitle(dlprof.resolve(name));
    }

    @Test
    void sameSectionsAndHeaders() throws Exception {
        Diffs d = new Diffs();
        for (DlprofReportKind k : DATA_REPORTS) {
            String name = DlprofReports.fileName("dlprof", k, DlprofFormat.CSV);
            Map<String, DlprofCsv.Section> o = ours(name);
            Map<String, DlprofCsv.Section> t = theirs(name);
            d.same(name + " sections", List.copyOf(o.keySet()), List.copyOf(t.keySet()));
            for (String title : t.keySet()) {
                if (!o.containsKey(title)) continue;
                if (k == DlprofReportKind.SUMMARY && !title.startsWith("All ")) {
                    Set<String> expected = new TreeSet<>(t.get(title).keyValues().keySet());
                    // dlprof-lint is not DLProf: it does not claim a DLProf version or build
                    expected.removeAll(Set.of("DLProf Version", "DLProf Build"));
                    d.same(name + " " + title + " rows", new TreeSet<>(o.get(title).keyValues().keySet()), expected);
                } else {
                    d.same(name + " " + title + " header", o.get(title).header(), t.get(title).header());
                }
            }
        }
        d.check();
    }

    @Test
    void summaryNumbers() throws Exception {
        Map<String, DlprofCsv.Section> o = ours("dlprof_summary.csv");
        Map<String, DlprofCsv.Section> t = theirs("dlprof_summary.csv");
        Diffs d = new Diffs();
        Map<String, String> os = o.get("System Config").keyValues();
        t.get("System Config").keyValues().forEach((k, v) -> {
            if (!k.startsWith("DLProf")) d.same("System Config " + k, os.get(k), v);
        });
        Map<String, String> or = o.get("Summary Report").keyValues();
        t.get("Summary Report").keyValues().forEach((k, v) -> {
            if (k.endsWith("%")) d.nearAbs("Summary " + k, or.get(k), v, 0.1);
            else d.near("Summary " + k, or.get(k), v);
        });
        Map<String, String> oi = o.get("Iterations").keyValues();
        t.get("Iterations").keyValues().forEach((k, v) -> {
            if (k.startsWith("Average") || k.contains("Deviation")) d.near("Iterations " + k, oi.get(k), v);
            else d.same("Iterations " + k, oi.get(k), v);
        });
        for (String table : List.of("All Ops", "All Kernels")) {
            Map<String, Map<String, String>> ot = keyed(o.get(table), "");
            for (Map<String, String> row : t.get(table).records()) {
                Map<String, String> mine = ot.get(row.get(""));
                String what = table + " / " + row.get("");
                if (mine == null) {
                    d.add(what + ": row missing");
                    continue;
                }
                row.forEach((col, v) -> {
                    if (col.isEmpty()) return;
                    if (col.startsWith("#")) d.same(what + " " + col, mine.get(col), v);
                    else d.near(what + " " + col, mine.get(col), v);
                });
            }
        }
        d.check();
    }

    @Test
    void detailedReportHasTheSameOpsTypesCallsAndTimes() throws Exception {
        compareTable("dlprof_detailed.csv", DetailedReport.TITLE, List.of("Op ID"),
                Set.of("Op Name", "Direction", "Op Type", "No. Calls", "TC Eligible", "Using TC", "Data Type", "Stack Trace"));
    }

    @Test
    void kernelReportHasTheSameKernelsPerOpAndTimes() throws Exception {
        compareTable("dlprof_kernel.csv", KernelReport.TITLE, List.of("Kernel Name", "Op ID"),
                Set.of("Op Name", "Direction", "Uses TC"));
    }

    @Test
    void iterationReportHasTheSameLaunches() throws Exception {
        compareTable("dlprof_iteration.csv", IterationReport.TITLE, List.of("Op ID", "Kernel Name", "GPU Start Time (ns)"),
                Set.of("Iteration", "Op Name", "Direction", "Op Type", "Device ID", "Uses TC", "Grid X", "Grid Y", "Grid Z",
                        "Block X", "Block Y", "Block Z", "Data Types", "Input Shapes", "Parameters", "API Call Start (ns)"),
                Map.of(
                        // Known difference 1: DLProf prints one long name per (op, kernel name) although launches of
                        // fft2d_r2c_32x32 differ in template arguments; we print each launch's own demangled name.
                        // Checked below: DLProf's name is one of the names our launches of that kernel carry.
                        "Long Kernel Name", (ours, dl) -> true,
                        // Known difference 2 (reader gap): DLProf derives conv2d/linear output shapes from the input
                        // shapes; the nsys reader does not yet. Ours must be DLProf's value or empty.
                        "Output Shapes", (ours, dl) -> ours.equals(dl) || ours.isEmpty()));
        Map<String, Set<String>> ourLongNames = new HashMap<>();
        for (Map<String, String> r : ours("dlprof_iteration.csv").get(IterationReport.TITLE).records()) {
            ourLongNames.computeIfAbsent(r.get("Op ID") + " | " + r.get("Kernel Name"), k -> new TreeSet<>())
                    .add(r.get("Long Kernel Name"));
        }
        Diffs d = new Diffs();
        for (Map<String, String> r : theirs("dlprof_iteration.csv").get(IterationReport.TITLE).records()) {
            String key = r.get("Op ID") + " | " + r.get("Kernel Name");
            Set<String> names = ourLongNames.getOrDefault(key, Set.of());
            if (!names.contains(r.get("Long Kernel Name"))) {
                d.add(key + ": DLProf long name " + r.get("Long Kernel Name") + " not among ours " + names);
            }
        }
        d.check();
    }

    @Test
    void tensorCoreReportHasTheSameOpsAndKernels() throws Exception {
        compareTable("dlprof_tensor_core.csv", TensorCoreReport.TITLE, List.of("Op ID"),
                Set.of("Op Name", "Direction", "Op Type", "Uses TC", "Total Kernel Count", "TC Kernel Count",
                        "TC Kernel Names", "Non-TC Kernel Count", "Non-TC Kernel Names"));
    }

    @Test
    void opTypeReportHasTheSameTypesAndTimes() throws Exception {
        compareTable("dlprof_op_type.csv", OpTypeReport.TITLE, List.of("Op Type"), Set.of("# Ops", "# Calls"));
    }

    @Test
    void groupOpReportHasTheSameGroupsAndTimes() throws Exception {
        compareTable("dlprof_group_op.csv", GroupOpReport.TITLE, List.of("Name"),
                Set.of("Num Calls Aggregated", "Num TC Eligible Ops", "Num Ops Using TC"));
    }

    /**
     * Rows matched by key columns: the same set of keys; {@code exact} columns equal; every other
     * numeric column within 1% (averages also within 0.05, their print precision).
     */
    private void compareTable(String file, String title, List<String> key, Set<String> exact) throws Exception {
        compareTable(file, title, key, exact, Map.of());
    }

    /** As above; {@code known} columns are compared by the given relation instead (documented differences). */
    private void compareTable(String file, String title, List<String> key, Set<String> exact,
                              Map<String, BiPredicate<String, String>> known) throws Exception {
        DlprofCsv.Section o = ours(file).get(title);
        DlprofCsv.Section t = theirs(file).get(title);
        Diffs d = new Diffs();
        Map<String, Map<String, String>> mine = keyed(o, key);
        Map<String, Map<String, String>> dl = keyed(t, key);
        d.same(file + " rows", new TreeSet<>(mine.keySet()), new TreeSet<>(dl.keySet()));
        d.same(file + " row count", o.body().size(), t.body().size());
        for (Map.Entry<String, Map<String, String>> e : dl.entrySet()) {
            Map<String, String> m = mine.get(e.getKey());
            if (m == null) continue;
            e.getValue().forEach((col, v) -> {
                if (key.contains(col)) return;
                String what = file + " " + e.getKey() + " " + col;
                if (known.containsKey(col)) {
                    if (!known.get(col).test(m.get(col), v)) d.add(what + ": ours " + m.get(col) + " DLProf " + v);
                } else if (exact.contains(col)) d.same(what, m.get(col), v);
                else d.near(what, m.get(col), v);
            });
        }
        d.check();
    }

    private static Map<String, Map<String, String>> keyed(DlprofCsv.Section s, String keyColumn) {
        return keyed(s, List.of(keyColumn));
    }

    private static Map<String, Map<String, String>> keyed(DlprofCsv.Section s, List<String> key) {
        Map<String, Map<String, String>> map = new LinkedHashMap<>();
        Map<String, Integer> seen = new HashMap<>();
        for (Map<String, String> r : s.records()) {
            List<String> parts = new ArrayList<>();
            for (String k : key) parts.add(r.get(k));
            String base = String.join(" | ", parts);
            int n = seen.merge(base, 1, Integer::sum);
            map.put(n == 1 ? base : base + " #" + n, r);
        }
        return map;
    }

    /** Collects every mismatch, then fails once listing them all. */
    static final class Diffs {
        private final List<String> diffs = new ArrayList<>();

        void add(String d) {
            diffs.add(d);
        }

        void same(String what, Object ours, Object theirs) {
            if (!java.util.Objects.equals(ours, theirs)) diffs.add(what + ": ours " + ours + " DLProf " + theirs);
        }

        void near(String what, String ours, String theirs) {
            if (ours == null) {
                diffs.add(what + ": missing (DLProf " + theirs + ")");
                return;
            }
            double a = Double.parseDouble(ours);
            double b = Double.parseDouble(theirs);
            double tol = Math.max(REL * Math.abs(b), 0.05);
            if (Math.abs(a - b) > tol) diffs.add(what + ": ours " + ours + " DLProf " + theirs);
        }

        void nearAbs(String what, String ours, String theirs, double tol) {
            if (ours == null || Math.abs(Double.parseDouble(ours) - Double.parseDouble(theirs)) > tol + 1e-9) {
                diffs.add(what + ": ours " + ours + " DLProf " + theirs);
            }
        }

        void check() {
            assertTrue(diffs.isEmpty(), diffs.size() + " differences from DLProf:\n  " + String.join("\n  ", diffs));
            assertEquals(List.of(), diffs);
        }
    }
}
