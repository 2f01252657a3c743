package dlproflint.extract.nsys;

import dlproflint.extract.common.Iterations;
import dlproflint.extract.common.StepInstances;
import dlproflint.extract.common.StepSweep;
import dlproflint.facts.CollectiveKind;
import dlproflint.facts.ProfileFacts;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Feeds an nsys export's kernels, copies and memsets to the {@link StepSweep} in start order (the GPU sweep of
 * {@link TimelinePass#busy} delivers them, so the tables are read once for the gaps, the busy bins and the
 * steps), and its data-loader NVTX ranges. Steps are the iterations, numbered by index: nsys has no step
 * numbers of its own.
 */
final class NsysSteps {
    private final NsysDatabase db;
    private final StepSweep sweep;
    private final Map<Long, Integer> classByName = new HashMap<>();

    NsysSteps(NsysDatabase db, Iterations its, long profileEnd) {
        this.db = db;
        int n = its.count();
        int[] numbers = new int[n];
        long[] starts = new long[n];
        long[] ends = new long[n];
        for (int i = 0; i < n; i++) {
            numbers[i] = i;
            starts[i] = its.start(i);
            ends[i] = i + 1 < n ? its.start(i + 1) : profileEnd;
        }
        sweep = new StepSweep(numbers, starts, ends);
    }

    /** The kernel name column that tells a collective kernel from a compute one (NULL when the export has none). */
    static String kernelNameColumn(NsysDatabase db) {
        String k = "CUPTI_ACTIVITY_KIND_KERNEL";
        return db.hasColumn(k, "shortName") ? "shortName" : db.hasColumn(k, "demangledName") ? "demangledName" : "NULL";
    }

    /** A kernel (its name id when {@code named}), in start order with the copies and memsets. */
    void kernel(long start, long end, boolean named, long nameId) throws SQLException {
        sweep.gpu(start, Math.max(start, end), named ? kernelClass(nameId) : StepSweep.COMPUTE, -1);
    }

    /** A copy or memset, in start order with the kernels. */
    void memory(long start, long end) {
        sweep.gpu(start, Math.max(start, end), StepSweep.MEMORY, -1);
    }

    /**
     * After the GPU sweep: the data-loader ranges (PyTorch's {@code enumerate(DataLoader)#...}, {@code _next_data},
     * as the evidence pass found them, the same ranges as the per-step data-loader time and the time breakdown
     * count), then the steps' facts.
     */
    void finish(StepInstances dataLoaderRanges, ProfileFacts.Builder out) {
        for (int i = 0; i < dataLoaderRanges.size(); i++) sweep.dataLoader(dataLoaderRanges.start(i), dataLoaderRanges.end(i));
        sweep.finish(out);
    }

    private int kernelClass(long nameId) throws SQLException {
        Integer c = classByName.get(nameId);
        if (c == null) {
            CollectiveKind k = CollectiveKind.ofKernel(db.string(nameId));
            c = k == null ? StepSweep.COMPUTE : k.ordinal();
            classByName.put(nameId, c);
        }
        return c;
    }
}
