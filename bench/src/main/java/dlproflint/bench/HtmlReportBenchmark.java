package dlproflint.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.Direction;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationKernel;
import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.Stat;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.reporters.html.Chromium;
import dlproflint.reporters.html.DevToolsPage;
import dlproflint.reporters.html.HtmlReporter;
import dlproflint.synth.Workload;
import dlproflint.synth.WorkloadSpec;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The HTML report's size and speed budget (docs/html-report.md): a 1M-kernel profile's report at most 5 MB and
 * interactive in Chromium within 2 s. For each report: its size; over fresh headless-Chromium loads (DevTools
 * protocol), the median time to first contentful paint, to the report script's {@code dlprof-lint:ready} mark
 * (every table wired: interactive) and to the load event; then a search over every op, every kernel row and
 * every iteration (typed into the table's search box: the first search parses the table's JSON block), and the
 * time until the browser painted the result. Next to each figure, a floor measured in the same run: an empty
 * page's first paint, the report's own markup without script and data, and a bare {@code filter} over the same
 * parsed rows. Not a unit test: run it by hand.
 *
 * <pre>
 * java -cp bench/target/dlprof-lint-bench.jar dlproflint.bench.HtmlReportBenchmark [--runs N] [REPORT.html...]
 * </pre>
 * Without arguments it measures {@code bench-out/nsys-1m.html} (the CLI's report of the 1M-kernel preset;
 * rendered here without findings when missing) and {@code bench-out/wide.html} (10,000 ops, 10,000 kernel rows,
 * 1,000 iterations with 100,000 per-iteration kernel rows, built in memory: the tables at their caps).
 */
public final class HtmlReportBenchmark {
    private HtmlReportBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int runs = 5;
        List<Path> reports = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--runs") && i + 1 < args.length) runs = Integer.parseInt(args[++i]);
            else if (args[i].startsWith("--")) {
                System.err.println("usage: HtmlReportBenchmark [--runs N] [REPORT.html...]");
                System.exit(2);
            } else reports.add(Path.of(args[i]));
        }
        Path out = Path.of("bench-out");
        Files.createDirectories(out);
        if (reports.isEmpty()) {
            reports.add(oneMillionKernelReport(out));
            reports.add(wideReport(out.resolve("wide.html")));
        }
        Path chromium = Chromium.find();
        if (chromium == null) {
            System.err.println("no Chromium found (install Debian's 'chromium' or set CHROMIUM)");
            System.exit(1);
        }
        Path work = Files.createDirectories(out.resolve("chromium"));
        System.out.printf(Locale.ROOT, "java %s, %d CPUs, load average %s, %s, %d fresh loads per report%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                ExtractBenchmark.loadAverage(), chromium, runs);
        Path empty = out.resolve("empty.html");
        Files.writeString(empty, "<!DOCTYPE html><html lang=en><meta charset=utf-8><title>x</title><p>x</p></html>");
        double[] emptyPaint = new double[runs];
        for (int r = 0; r < runs; r++) {
            try (DevToolsPage page = DevToolsPage.launch(chromium, work, 1280, 1000)) {
                page.navigate(empty.toUri().toString());
                emptyPaint[r] = paint(page);
            }
        }
        System.out.printf(Locale.ROOT, "floor: first paint of an empty page %.0f ms%n", median(emptyPaint));
        for (Path report : reports) measure(chromium, work, report, runs);
    }

    private static void measure(Path chromium, Path work, Path report, int runs) throws Exception {
        String html = Files.readString(report, StandardCharsets.UTF_8);
        // floor: the same markup without the script and the data blocks (parse, style, layout, paint)
        Path markup = report.resolveSibling(report.getFileName() + ".markup-only.html");
        Files.writeString(markup, html.replaceAll("(?s)<script[^>]*>.*?</script>", ""), StandardCharsets.UTF_8);
        System.out.printf(Locale.ROOT, "%n%s: %,d bytes (%.2f MB), markup without script and data %,d bytes%n", report,
                Files.size(report), Files.size(report) / 1e6, Files.size(markup));
        double[] fcp = new double[runs], ready = new double[runs], load = new double[runs], markupPaint = new double[runs];
        String[] tables = {"p1-t-ops", "p1-t-kernels", "p1-t-its"};
        String[] blocks = {"p1-d-ops", "p1-d-kernels", "p1-d-its"};
        double[][] search = new double[tables.length][runs], painted = new double[tables.length][runs];
        double[][] bare = new double[tables.length][runs];
        String[] found = new String[tables.length];
        for (int r = 0; r < runs; r++) {
            try (DevToolsPage page = DevToolsPage.launch(chromium, work, 1280, 1000)) {
                page.navigate(markup.toUri().toString());
                markupPaint[r] = paint(page);
            }
            try (DevToolsPage page = DevToolsPage.launch(chromium, work, 1280, 1000)) {
                page.navigate(report.toUri().toString());
                fcp[r] = paint(page);
                ready[r] = page.eval("performance.getEntriesByName('dlprof-lint:ready')[0].startTime").asDouble();
                load[r] = page.eval("performance.getEntriesByType('navigation')[0].loadEventEnd").asDouble();
                for (int t = 0; t < tables.length; t++) {
                    // the floor first, in the same page: parse the block and filter its rows, nothing else
                    bare[t][r] = page.eval("(() => { const t0 = performance.now(); const b = JSON.parse(document"
                            + ".getElementById('" + blocks[t] + "').textContent); const n = b.r.filter(r => JSON.stringify(r)"
                            + ".toLowerCase().includes('1')).length; return performance.now() - t0 + n * 0; })()").asDouble();
                    String view = tables[t].replace("-t-", "-v-").replaceAll("-v-kernels$", "-v-ops");
                    page.eval("new Promise(done => { location.hash = '" + view + "'; requestAnimationFrame(() => done(1)); })");
                    JsonNode s = page.eval("new Promise(done => { const i = document.querySelector('#" + tables[t]
                            + " .dt-search input'); const t0 = performance.now(); i.value = '1'; i.dispatchEvent(new Event('input'));"
                            + " const t1 = performance.now(); requestAnimationFrame(() => requestAnimationFrame(() => done({search: t1 - t0,"
                            + " painted: performance.now() - t0, info: document.querySelector('#" + tables[t] + " .dt-info')"
                            + ".textContent}))); })");
                    search[t][r] = s.get("search").asDouble();
                    painted[t][r] = s.get("painted").asDouble();
                    found[t] = s.get("info").asText();
                }
                if (!page.problems().isEmpty()) System.out.println("page problems: " + page.problems());
            }
        }
        System.out.printf(Locale.ROOT, "  first contentful paint   %6.0f ms   (floor: same markup, no script/data %4.0f ms)%n",
                median(fcp), median(markupPaint));
        System.out.printf(Locale.ROOT, "  interactive (script ready) %4.0f ms   load event %4.0f ms%n", median(ready), median(load));
        for (int t = 0; t < tables.length; t++) {
            System.out.printf(Locale.ROOT, "  search '1' in %-13s %6.1f ms, painted after %6.1f ms   (floor: JSON.parse + filter %6.1f ms)  %s%n",
                    tables[t], median(search[t]), median(painted[t]), median(bare[t]), found[t]);
        }
        double worst = Math.max(median(ready), median(fcp));
        for (double[] p : painted) worst = Math.max(worst, median(ready) + median(p));
        System.out.printf(Locale.ROOT, "  budget: %.2f MB <= 5 MB %s; interactive and first search painted within %.0f ms <= 2000 ms %s%n",
                Files.size(report) / 1e6, Files.size(report) <= 5_000_000 ? "met" : "NOT MET", worst,
                worst <= 2000 ? "met" : "NOT MET");
    }

    /** Start time of the first contentful paint (waits for it). */
    private static double paint(DevToolsPage page) {
        String expr = "(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime";
        page.waitFor(() -> !page.eval(expr).isMissingNode() && !page.eval(expr).isNull(), "first contentful paint");
        return page.eval(expr).asDouble();
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** The 1M-kernel preset's report; rendered from its facts (no findings) when the CLI has not written it. */
    private static Path oneMillionKernelReport(Path out) throws Exception {
        Path report = out.resolve("nsys-1m.html");
        if (Files.exists(report)) return report;
        Path profile = out.resolve("nsys-1m.sqlite");
        if (!Files.exists(profile)) Workload.generate(WorkloadSpec.benchmark1M(), profile);
        long t0 = System.nanoTime();
        ProfileFacts facts = ProfileReaders.discover().read(profile, new ReadOptions("aten::to", null, null));
        long t1 = System.nanoTime();
        render(report, facts);
        System.out.printf(Locale.ROOT, "rendered %s without findings (read %.1f s, render %.2f s); the CLI's report: "
                + "./dlprof-lint %s --key-node aten::to --report html=%s%n", report, (t1 - t0) / 1e9,
                (System.nanoTime() - t1) / 1e9, profile, report);
        return report;
    }

    /** The tables at their caps: 10,000 ops and kernel rows, 1,000 iterations of 100 kernel rows each. */
    private static Path wideReport(Path report) throws Exception {
        ProfileFacts.Builder b = ProfileFacts.builder().profile(new ProfileInfo("wide/nsys_profile.sqlite", "nsys-sqlite",
                null, null, 0, 1_000_000_000_000L));
        String[] types = {"conv2d", "linear", "batch_norm", "relu", "add", "matmul", "layer_norm", "softmax"};
        for (int i = 0; i < 10_000; i++) {
            String type = types[i % types.length];
            b.op(new OpFact(type.toUpperCase(Locale.ROOT) + "_" + i, "model/layer" + (i / 40) + "/block" + (i % 40) + "/" + type,
                    type, i % 2 == 0 ? Direction.FPROP : Direction.BPROP, 1000, stat(1000, 20_000 + i),
                    stat(1000, 50_000 + 7L * i), stat(1000, 4_000), stat(1000, 1_000), i % 8 < 2, i % 16 == 0, 0, 1000,
                    "float16", "[[64, 256, 56, 56]]", List.of()));
            b.kernel(new KernelFact("kernel_" + type + "_" + i, "void kernel_" + type + "_" + i + "<float>(float const*)",
                    type.toUpperCase(Locale.ROOT) + "_" + i, 0, stat(1000, 40_000 + 5L * i), stat(1000, 5_000),
                    i % 16 == 0, "128,1,1", "256,1,1"));
        }
        for (int it = 0; it < 1000; it++) {
            long start = it * 500_000_000L;
            b.iteration(new Iteration(it, start, start + 480_000_000L, true, 100, 100 * 45_000L, 0, 1_000_000));
            for (int k = 0; k < 100; k++) {
                int i = (it * 100 + k) % 10_000;
                String type = types[i % types.length];
                b.iterationKernel(new IterationKernel(it, type.toUpperCase(Locale.ROOT) + "_" + i,
                        "kernel_" + type + "_" + i, 0, i % 16 == 0, 1, 45_000, start + k * 1_000_000L));
            }
        }
        render(report, b.build());
        return report;
    }

    private static Stat stat(long count, long avg) {
        return new Stat(count, count * avg, avg * 8 / 10, avg * 13 / 10);
    }

    private static void render(Path report, ProfileFacts facts) throws Exception {
        try (OutputStream o = Files.newOutputStream(report)) {
            new HtmlReporter().render(new LintRun("bench", List.of(), List.of(),
                    List.of(new ProfileResult(facts, List.of(), List.of()))), o);
        }
    }
}
