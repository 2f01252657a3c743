package dlproflint.facts;

import java.util.Locale;

/**
 * The number format a kernel computes in, as its name says (see the kernel catalogue,
 * {@code docs/kernel-catalogue.md}). For a mixed-precision kernel it is the operand format the
 * multiply-adds run on (a bf16 GEMM accumulating in fp32 is {@link #BF16}). A kernel whose name says
 * nothing has no precision (null in the facts).
 */
public enum Precision {
    FP64, FP32, TF32, FP16, BF16, FP8, FP4, INT8;

    /** Lower-case label as reports print it: {@code fp32}, {@code bf16}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Half precision or narrower: the formats automatic mixed precision and quantisation produce. */
    public boolean reduced() {
        return this == FP16 || this == BF16 || this == FP8 || this == FP4 || this == INT8;
    }

    /** {@code fp32} → {@link #FP32}; null for null, blank or an unknown label. */
    public static Precision ofLabel(String label) {
        if (label == null || label.isBlank()) return null;
        try {
            return valueOf(label.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
