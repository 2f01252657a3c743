package dlproflint.packs.pytorch;

/** How much larger a batch fits in GPU memory, from the tensors' peak. */
public final class BatchHeadroom {
    /** Suggestions stop here: beyond it the step changes character (optimizer behaviour, input pipeline). */
    public static final int MAX_FACTOR = 8;

    private BatchHeadroom() {
    }

    /**
     * The largest power of two {@code k} (at most {@link #MAX_FACTOR}) with {@code k × peak} within {@code targetPct}
     * of device memory; 1 when even twice the peak would not fit. Taking the whole peak as growing with the batch
     * keeps the estimate on the safe side (parameters and optimizer state do not grow).
     */
    public static int factor(long peakAllocatedBytes, long totalBytes, double targetPct) {
        if (peakAllocatedBytes <= 0 || totalBytes <= 0) return 1;
        int k = 1;
        while (k < MAX_FACTOR && (double) peakAllocatedBytes * k * 2 <= totalBytes * targetPct / 100.0) k *= 2;
        return k;
    }
}
