package dlproflint.ruletests;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dlproflint.engine.LintEngine;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KernelFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.TimeBreakdown;
import dlproflint.findings.Finding;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every profile of the shared corpus, read by the real readers and linted by the built-in packs, against
 * a committed snapshot ({@code src/test/resources/corpus-snapshots}): what was read (formats, counts,
 * iterations, GPUs, breakdown, warnings) and every finding (rule, severity, subject, message, impact, evidence).
 * A refactoring or an optimisation must leave every snapshot as it is; a change that means to alter
 * findings rewrites them with {@code -Dsnapshots.update=true} and the diff shows, in review, what
 * appeared, vanished or changed on real profiles.
 */
class CorpusSnapshotTest {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String DIR = "rule-tests/src/test/resources/corpus-snapshots";
    private static LintEngine engine;
    private static ProfileReaders readers;

    @BeforeAll
    static void load() throws Exception {
        engine = AllPacks.builtin();
        readers = AllPacks.readers();
    }

    /** Every profile-like file of the corpus, as corpus-relative paths with '/' separators, sorted. */
    static List<String> corpusProfiles() {
        return Corpus.profiles();
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusProfileMatchesItsSnapshot() throws IOException {
        Path dir = AllPacks.repo().resolve(DIR);
        boolean update = Boolean.getBoolean("snapshots.update");
        List<String> profiles = update ? Corpus.present() : corpusProfiles();
        List<DynamicTest> tests = new ArrayList<>();
        for (String rel : profiles) {
            tests.add(DynamicTest.dynamicTest(rel, () -> {
                String actual = snapshot(rel);
                Path golden = dir.resolve(rel.replace('/', '~') + ".json");
                if (update) {
                    Files.createDirectories(dir);
                    Files.writeString(golden, actual, StandardCharsets.UTF_8);
                    return;
                }
                assertTrue(Files.exists(golden), "no snapshot for " + rel + "; run with -Dsnapshots.update=true and review it");
                assertEquals(Files.readString(golden, StandardCharsets.UTF_8), actual,
                        rel + " no longer matches " + golden + " (if the change is intended, rewrite the snapshots with"
                                + " -Dsnapshots.update=true and account for the diff)");
            }));
        }
        tests.add(DynamicTest.dynamicTest("no snapshot without its corpus profile", () -> {
            if (profiles.isEmpty() || !Files.isDirectory(dir)) return;
            // a registered profile gone from the corpus keeps its snapshot until the registry is rewritten: that is
            // NewCorpusProfilesTest's one failure, not this test's
            java.util.Set<String> keep = update ? new java.util.TreeSet<>(Corpus.present()) : Corpus.registered();
            List<String> expected = keep.stream().map(r -> r.replace('/', '~') + ".json").toList();
            try (Stream<Path> files = Files.list(dir)) {
                List<String> stale = files.map(p -> p.getFileName().toString()).filter(n -> !expected.contains(n)).sorted().toList();
                if (update) {
                    for (String n : stale) Files.delete(dir.resolve(n));
                } else {
                    assertEquals(List.of(), stale, "snapshots whose profile is gone");
                }
            }
        }));
        return tests.stream();
    }

    static String snapshot(String rel) throws Exception {
        ObjectNode root = JSON.createObjectNode();
        root.put("profile", rel);
        ProfileFacts facts;
        try {
            facts = readers.read(Corpus.file(rel), ReadOptions.DEFAULT);
        } catch (ProfileException e) {
            root.put("error", e.getMessage().replace(Corpus.root().toString(), "<corpus>"));
            return JSON.writeValueAsString(root) + "\n";
        }
        root.put("format", facts.profile().format());
        root.set("read", summary(facts));
        ArrayNode warnings = root.putArray("warnings");
        for (ExtractionWarning w : facts.warnings()) warnings.add(w.code() + ": " + w.message());
        ArrayNode findings = root.putArray("findings");
        List<Finding> linted = engine.lint(facts);
        // issue 24: no two findings claim the same lost time, no impact rounds to zero
        assertEquals(List.of(), SavingsCountedOnce.violations(linted), rel);
        for (Finding f : linted) {
            ObjectNode n = findings.addObject();
            n.put("rule", f.ruleId());
            n.put("severity", f.severity().label());
            n.put("subject", f.subject().ref());
            n.put("messageId", f.messageId());
            n.put("problem", f.problem());
            if (f.impact() != null) {
                ObjectNode im = n.putObject("impact");
                im.put("basis", f.impact().basis().name().toLowerCase(java.util.Locale.ROOT));
                im.put("lostNs", Math.round(f.impact().lostNs()));
                im.set("sharePct", JSON.valueToTree(round(f.impact().sharePct())));
                im.set("savingPct", JSON.valueToTree(round(f.impact().savingPct())));
                im.put("model", f.impact().model());
            }
            if (f.location() != null) n.put("location", f.location().toString());
            ObjectNode ev = n.putObject("evidence");
            for (Map.Entry<String, Object> e : f.evidence().entrySet()) ev.set(e.getKey(), JSON.valueToTree(round(e.getValue())));
        }
        return JSON.writeValueAsString(root) + "\n";
    }

    private static ObjectNode summary(ProfileFacts facts) {
        ObjectNode s = JSON.createObjectNode();
        s.put("wallNs", facts.profile().wallNs());
        s.put("ops", facts.ops().size());
        s.put("kernels", facts.kernels().size());
        s.put("kernelLaunches", facts.kernels().stream().mapToLong(KernelFact::calls).sum());
        s.put("tcKernels", facts.kernels().stream().filter(KernelFact::usesTc).count());
        IterationSummary it = facts.iterationSummary();
        ObjectNode its = s.putObject("iterations");
        its.put("total", it.total());
        its.put("aggregated", it.aggStart() + "-" + it.aggStop());
        its.put("keyNode", it.keyNode());
        its.put("source", it.keyNodeSource());
        its.put("method", it.method());
        its.put("avgNs", Math.round(it.avgDurationNs()));
        ArrayNode gpus = s.putArray("gpus");
        for (GpuInfo g : facts.gpus()) gpus.add(g.deviceId() + " " + g.name() + " (cc " + g.computeCapability() + ")");
        TimeBreakdown b = facts.breakdown();
        ObjectNode br = s.putObject("breakdown");
        br.set("gpuUtilizationPct", JSON.valueToTree(round(b.gpuUtilizationPct())));
        br.set("tcUtilizationPct", JSON.valueToTree(round(b.tcUtilizationPct())));
        br.set("dataloaderPct", JSON.valueToTree(round(b.dataloaderPct())));
        br.set("cpuPct", JSON.valueToTree(round(b.cpuPct())));
        br.set("otherPct", JSON.valueToTree(round(b.otherPct())));
        s.put("apiStats", facts.apiStats().size());
        s.put("memcpyStats", facts.memcpyStats().size());
        s.put("gpuGaps", facts.gpuGaps().size());
        s.put("syncApiStats", facts.syncApiStats().size());
        // where findings' source lines come from (absent when the profile holds no call stacks)
        if (facts.callSites().recorded()) s.put("callStacks", facts.callSites().source());
        return s;
    }

    /** Doubles to 6 significant digits, so snapshots do not churn on the last bits of a sum. */
    private static Object round(Object v) {
        if (v instanceof Double d && !d.isNaN() && !d.isInfinite()) {
            return new BigDecimal(d).round(new MathContext(6)).stripTrailingZeros().doubleValue();
        }
        if (v instanceof List<?> l) return l.stream().map(CorpusSnapshotTest::round).toList();
        return v;
    }
}
