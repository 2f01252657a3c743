package dlproflint.engine.run;

import dlproflint.findings.Finding;
import dlproflint.findings.Fingerprint;
import dlproflint.findings.Impact;
import dlproflint.findings.Severity;
import dlproflint.findings.SeverityThresholds;
import dlproflint.findings.Subject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CauseLinksTest {
    static final double STEP = 100_000_000;

    static Finding finding(String id, String category, double savingPct) {
        Impact i = Impact.perStep(STEP * savingPct / 100, STEP, STEP * savingPct / 100, "model");
        return new Finding(id, id.substring(0, id.indexOf('/')), "1.0.0", SeverityThresholds.DEFAULT.severityOf(i), category,
                "problem", "advice", Map.of(), Subject.profile(), null, "help", "p", Fingerprint.of(id, Subject.profile()), i);
    }

    static List<Finding> link(Finding... f) {
        return CauseLinks.apply(List.of(f), (id, i) -> i == null ? Severity.WARNING : SeverityThresholds.DEFAULT.severityOf(i));
    }

    static double savedTotal(List<Finding> fs) {
        return fs.stream().mapToDouble(f -> f.impact().savingPct()).sum();
    }

    @Test
    void aSymptomExplainedByItsCauseKeepsOnlyWhatTheCauseDoesNotClaim() {
        Finding sync = finding("pytorch/host-sync-in-step", "synchronization", 14);
        Finding idle = finding("dlprof/underutilized-gpu", "utilization", 50);
        Finding launches = finding("pytorch/cpu-bound-launches", "utilization", 15);
        List<Finding> out = link(idle, sync, launches);
        assertSame(sync, out.get(1), "the cause keeps its saving");
        assertEquals(1.0, out.get(2).impact().savingPct(), 1e-9, "launch overhead: 15 - 14");
        assertEquals(35.0, out.get(0).impact().savingPct(), 1e-9, "the symptom: 50 - 14 - 1");
        assertEquals(50.0, savedTotal(out), 1e-9, "together they claim the idle time once");
        assertTrue(out.get(0).recommendation().startsWith("Partly explained by pytorch/host-sync-in-step, pytorch/cpu-bound-launches"),
                out.get(0).recommendation());
        assertEquals(Severity.NOTE, out.get(2).severity(), "severity follows what is left");
        assertEquals(out.get(0).impact().lostNs(), idle.impact().lostNs(), "what the symptom costs is still shown");
    }

    @Test
    void aFullyExplainedSymptomBecomesANotePointingAtItsCause() {
        Finding loader = finding("dlprof/dataloader-bound", "input-pipeline", 60);
        Finding idle = finding("dlprof/underutilized-gpu", "utilization", 55);
        List<Finding> out = link(loader, idle);
        assertEquals(0.0, out.get(1).impact().savingPct(), 1e-9);
        assertEquals(Severity.NOTE, out.get(1).severity());
        assertTrue(out.get(1).recommendation().startsWith("Explained by dlprof/dataloader-bound"));
        assertTrue(out.get(1).impact().model().contains("claimed by dlprof/dataloader-bound"));
    }

    @Test
    void causesOfOneCategoryClaimTheSameTimeCausesOfTwoDoNot() {
        Finding api = finding("nsys/sync-api", "synchronization", 10);
        Finding sync = finding("pytorch/host-sync-in-step", "synchronization", 12);
        Finding loader = finding("dlprof/dataloader-bound", "input-pipeline", 30);
        List<Finding> out = link(api, sync, loader);
        assertEquals(0.0, out.get(0).impact().savingPct(), 1e-9, "the smaller sync finding: the same calls");
        assertSame(sync, out.get(1));
        assertSame(loader, out.get(2));
    }

    @Test
    void theScalersSyncsClaimIdleTimeWithTheScalerOnlyWhereItHasThem() {
        // fp16-not-bf16 whose saving holds GradScaler's inf-check syncs: it explains the idle symptom as a sync cause would
        Finding f = finding("pytorch/fp16-not-bf16", "precision", 4);
        Finding withSyncs = new Finding(f.ruleId(), f.packId(), f.packVersion(), f.severity(), f.category(), f.problem(),
                f.recommendation(), Map.of("gradScalerSyncPoints", 4L), f.subject(), f.location(), f.helpUri(), f.profilePath(),
                f.fingerprint(), f.impact());
        Finding idle = finding("pytorch/idle-breakdown", "utilization", 30);
        List<Finding> out = link(withSyncs, idle);
        assertEquals(26.0, out.get(1).impact().savingPct(), 1e-9, "the symptom keeps what the scaler does not claim");
        assertTrue(out.get(1).recommendation().startsWith("Partly explained by pytorch/fp16-not-bf16"), out.get(1).recommendation());
        // with a fused optimizer there is no such sync: the loss-scaling ops' time claims nothing shared
        List<Finding> fused = link(f, idle);
        assertSame(idle, fused.get(1));
    }

    @Test
    void ampAndTf32AreAlternativesOfTheSameKernels() {
        Finding amp = finding("dlprof/amp-not-used", "precision", 74);
        Finding tf32 = finding("pytorch/tf32-off", "precision", 57);
        Finding conversions = finding("nsys/precision-conversions", "precision", 3);
        List<Finding> out = link(tf32, amp, conversions);
        assertEquals(0.0, out.get(0).impact().savingPct(), 1e-9);
        assertTrue(out.get(0).recommendation().startsWith("An alternative to dlprof/amp-not-used"));
        assertSame(amp, out.get(1));
        assertSame(conversions, out.get(2), "casts are other kernels");
    }

    @Test
    void findingsWithoutACostOrAnOverlapAreUntouched() {
        List<Finding> in = List.of(finding("pytorch/host-sync-in-step", "synchronization", 14),
                finding("dlprof/cudnn-benchmark-off", "framework-settings", 5));
        assertSame(in, CauseLinks.apply(in, (id, i) -> Severity.NOTE));
    }

    @Test
    void causesTogetherNeverRecoverMoreThanTheIdleTimeTheSymptomsMeasured() {
        Finding loader = finding("dlprof/dataloader-bound", "input-pipeline", 84);
        Finding sync = finding("pytorch/host-sync-in-step", "synchronization", 84);
        Finding idle = finding("dlprof/underutilized-gpu", "utilization", 96);
        List<Finding> out = link(loader, sync, idle);
        assertEquals(96.0, savedTotal(out), 1e-9);
        assertEquals(12.0, out.get(1).impact().savingPct(), 1e-9, "what the data loader left of the idle time");
    }

    @Test
    void unpinnedBatchesAndPageableCopiesAreTheSameCopies() {
        Finding pin = finding("pytorch/pin-memory-off", "input-pipeline", 7.0);
        Finding pageable = finding("nsys/pageable-async-memcpy", "memory", 2.6);
        List<Finding> out = link(pin, pageable);
        assertEquals(7.0, savedTotal(out), 1e-9);
        assertTrue(out.get(1).recommendation().startsWith("The same time as pytorch/pin-memory-off"), out.get(1).recommendation());
    }

    @Test
    void aFindingWhoseCostRoundsToZeroIsANoteWithoutAnImpactThatSaysSo() {
        Finding tiny = finding("nsys/pageable-async-memcpy", "memory", 0.01);
        Finding real = finding("dlprof/dataloader-bound", "input-pipeline", 30);
        List<Finding> out = link(tiny, real);
        assertEquals(2, out.size(), out.toString());
        assertEquals(null, out.get(0).impact(), "no impact that shows as zero");
        assertEquals(Severity.NOTE, out.get(0).severity());
        assertTrue(out.get(0).recommendation().startsWith("Its cost rounds to zero in this profile"));
        assertSame(real, out.get(1));
    }
}
