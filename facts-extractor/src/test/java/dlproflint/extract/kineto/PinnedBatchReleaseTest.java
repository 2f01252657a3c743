package dlproflint.extract.kineto;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.InputCopyStat;
import dlproflint.testing.Corpus;
import dlproflint.testing.ProfileVariants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The release of pageable batches that {@code pin-memory-off} prices, on the real H200 trace whose DataLoader hands
 * its 12 workers' batches over unpinned: about 3.9 ms of unrecorded time on the loop's thread between each hand-over
 * and the batch's copy (none in the pinned twin), and on a variant of it where the thread records an op right after
 * each hand-over, so the quiet time is not there to price.
 */
class PinnedBatchReleaseTest {
    private static final KinetoTraceReader READER = new KinetoTraceReader();
    private static final String UNPINNED = "pytorch-h200-2026/mobilenet_loader_unpinned.pt.trace.json.gz";
    private static final String PINNED = "pytorch-h200-2026/mobilenet_loader_nw12.pt.trace.json.gz";
    private static final double MS = 1e6;

    @TempDir
    Path dir;

    @Test
    void theUnpinnedLoopsQuietTimeBeforeEachCopyIsPricedAsTheBatchRelease() throws Exception {
        InputCopyStat c = READER.read(Corpus.file(UNPINNED), ReadOptions.DEFAULT).inputCopies();
        assertNotNull(c);
        int steps = 4;
        double perStep = c.pageableReleaseNs() / (double) steps;
        assertTrue(perStep > 3 * MS && perStep < 5 * MS, "release per step " + perStep / MS + " ms");
        assertTrue(c.pageableReleaseNs() <= c.pageableHostNs(), "never more than the copy calls' own host time");
        assertTrue(c.pageableSavingNs() > c.pageableReleaseNs(), "the saving holds the release and the copies");

        InputCopyStat pinned = READER.read(Corpus.file(PINNED), ReadOptions.DEFAULT).inputCopies();
        assertEquals(0, pinned.pageableCopies());
        assertEquals(0, pinned.pageableReleaseNs());
    }

    /** An event made by {@code make} from a copy of each DataLoader hand-over, {@code afterUs} after it ended. */
    private static UnaryOperator<List<JsonNode>> afterEachHandOver(double afterUs, Consumer<ObjectNode> make) {
        return ProfileVariants.plusCopies(e -> e.path("name").asText("").startsWith("enumerate(DataLoader)#"), e -> {
            double end = e.path("ts").asDouble() + e.path("dur").asDouble();
            make.accept(e);
            e.put("ts", end + afterUs);
            return e;
        });
    }

    @Test
    void anOpRecordedRightAfterTheHandOverEndsTheQuietTime() throws Exception {
        Path original = Corpus.file(UNPINNED);
        InputCopyStat before = READER.read(original, ReadOptions.DEFAULT).inputCopies();
        // the user's code does recorded work 20 us after each hand-over: whatever follows is not the release
        Path busy = ProfileVariants.kineto(original, dir, "op-after-hand-over", afterEachHandOver(20, op -> {
            op.put("name", "aten::empty");
            op.put("cat", "cpu_op");
            op.put("dur", 5);
        }));
        InputCopyStat after = READER.read(busy, ReadOptions.DEFAULT).inputCopies();
        assertTrue(after.pageableReleaseNs() < 0.1 * MS * 4, "release " + after.pageableReleaseNs());
        double lost = (before.pageableSavingNs() - after.pageableSavingNs()) / 4.0;
        assertTrue(lost > 3 * MS && lost < 5 * MS, "saving per step without the release: " + lost / MS + " ms less");
    }

    @Test
    void allocatorRecordsInTheQuietTimeDoNotEndIt() throws Exception {
        // as profile_memory=True records them: the CPU allocator freeing the previous batch, an instant event
        Path original = Corpus.file(UNPINNED);
        InputCopyStat before = READER.read(original, ReadOptions.DEFAULT).inputCopies();
        Path withMemory = ProfileVariants.kineto(original, dir, "memory-events", afterEachHandOver(50, free -> {
            free.put("name", "[memory]");
            free.put("ph", "i");
            free.put("cat", "cpu_instant_event");
            free.put("s", "t");
            free.remove("dur");
            ObjectNode args = free.putObject("args");
            args.put("Device Type", 0);
            args.put("Device Id", -1);
            args.put("Bytes", -39_321_600L);
            args.put("Total Allocated", 0);
        }));
        InputCopyStat after = READER.read(withMemory, ReadOptions.DEFAULT).inputCopies();
        assertEquals(before.pageableReleaseNs(), after.pageableReleaseNs());
    }
}
