package dlproflint.synth;

/**
 * GPUs the generator can put in {@code TARGET_INFO_GPU}. The RTX 2070 SUPER row copies the real one of the
 * DLProf corpus capture; the others use the vendors' published figures.
 */
public enum GpuModel {
    RTX_2070_SUPER("NVIDIA GeForce RTX 2070 SUPER", "TU104", 40, 7, 5, 8368816128L, 448064000000L, 1785000000L, 4194304),
    V100_SXM2_16GB("Tesla V100-SXM2-16GB", "GV100", 80, 7, 0, 16945512448L, 898048000000L, 1530000000L, 6291456),
    A100_SXM4_40GB("NVIDIA A100-SXM4-40GB", "GA100", 108, 8, 0, 42505273344L, 1555200000000L, 1410000000L, 41943040),
    H100_SXM5_80GB("NVIDIA H100 80GB HBM3", "GH100", 132, 9, 0, 85520809984L, 3352320000000L, 1980000000L, 52428800);

    private final String displayName;
    private final String chip;
    private final int smCount;
    private final int computeMajor;
    private final int computeMinor;
    private final long totalMemory;
    private final long memoryBandwidth;
    private final long clockRate;
    private final int l2CacheSize;

    GpuModel(String displayName, String chip, int smCount, int computeMajor, int computeMinor, long totalMemory,
             long memoryBandwidth, long clockRate, int l2CacheSize) {
        this.displayName = displayName;
        this.chip = chip;
        this.smCount = smCount;
        this.computeMajor = computeMajor;
        this.computeMinor = computeMinor;
        this.totalMemory = totalMemory;
        this.memoryBandwidth = memoryBandwidth;
        this.clockRate = clockRate;
        this.l2CacheSize = l2CacheSize;
    }

    public String displayName() { return displayName; }
    public String chip() { return chip; }
    public int smCount() { return smCount; }
    public int computeMajor() { return computeMajor; }
    public int computeMinor() { return computeMinor; }
    public long totalMemory() { return totalMemory; }
    public long memoryBandwidth() { return memoryBandwidth; }
    public long clockRate() { return clockRate; }
    public int l2CacheSize() { return l2CacheSize; }

    /** Volta and later have tensor cores. */
    public boolean hasTensorCores() {
        return computeMajor >= 7;
    }
}
