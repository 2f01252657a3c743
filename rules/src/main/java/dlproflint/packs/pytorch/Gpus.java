package dlproflint.packs.pytorch;

import dlproflint.facts.GpuInfo;

import java.util.Locale;

/** What a recorded GPU is, for rules that depend on its generation. An unknown GPU is unknown, never "old". */
public final class Gpus {
    private Gpus() {
    }

    /** AMD devices report their gfx version as compute capability (an MI250 says 9.0): not an NVIDIA generation. */
    public static boolean amd(GpuInfo g) {
        String n = g.name() == null ? "" : g.name().toLowerCase(Locale.ROOT);
        return n.contains("amd") || n.contains("radeon") || n.contains("instinct");
    }

    /**
     * An NVIDIA GPU of compute capability 8.0 or newer (Ampere, Ada, Hopper, Blackwell): TF32 and BF16 tensor
     * cores. False when the capability was not recorded.
     */
    public static boolean ampereOrNewer(GpuInfo g) {
        return g.computeMajor() >= 8 && !amd(g);
    }

    /** {@code NVIDIA A100-SXM4-80GB (8.0)}. */
    public static String describe(GpuInfo g) {
        return g.name() + " (" + g.computeMajor() + "." + g.computeMinor() + ")";
    }
}
