package dlproflint.packs.dlprof;

import dlproflint.facts.OpFact;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a tensor-core-eligible op ran no tensor-core kernel, for {@code bad-tensor-shape.drl}.
 *
 * <p>Tensor cores need FP16/BF16 (or TF32 on Ampere+) operands and, for the fast paths, the GEMM
 * dimensions M, N, K (for convolutions: input and output channels) to be multiples of 8 (NVIDIA Deep
 * Learning Performance Guide, "Tensor Core requirements"). Shapes are read from the op's input shapes
 * as the reader prints them, e.g. {@code [(32, 3, 32, 32), (6, 3, 3, 3)]}.
 */
public final class TensorShapes {
    private static final Pattern TUPLE = Pattern.compile("[\\(\\[]([0-9][0-9,\\s]*)[\\)\\]]");

    private TensorShapes() {
    }

    /**
     * @param cause       {@code shape} (half precision, misaligned dims) or {@code dtype} (fp32 op while
     *                    other ops use tensor cores)
     * @param misaligned  the dims that matter and are not multiples of the alignment
     */
    public record Diagnosis(OpFact op, String cause, List<Long> misaligned) {
        public String misalignedList() {
            List<String> s = new ArrayList<>();
            for (Long d : misaligned) s.add(Long.toString(d));
            return String.join(", ", s);
        }
    }

    public static boolean halfPrecision(String dataType) {
        if (dataType == null) return false;
        String t = dataType.toLowerCase(Locale.ROOT);
        return t.contains("16") || t.equals("half");
    }

    /** Parses {@code [(32, 3, 32, 32), (6, 3, 3, 3)]} into tensors; ignores anything that is not a tuple of integers. */
    public static List<long[]> parse(String shapes) {
        List<long[]> out = new ArrayList<>();
        if (shapes == null) return out;
        Matcher m = TUPLE.matcher(shapes);
        while (m.find()) {
            String[] parts = m.group(1).split(",");
            List<Long> dims = new ArrayList<>();
            for (String p : parts) {
                String t = p.trim();
                if (!t.isEmpty()) dims.add(Long.parseLong(t));
            }
            long[] a = new long[dims.size()];
            for (int i = 0; i < a.length; i++) a[i] = dims.get(i);
            if (a.length > 0) out.add(a);
        }
        return out;
    }

    /**
     * The dims that decide tensor-core use and are not multiples of {@code alignment}: channels for
     * convolutions (input dim 1, weight dims 0 and 1), the last two dims of each operand for
     * matrix products, every non-batch dim otherwise.
     */
    public static List<Long> misaligned(String opType, String shapes, long alignment) {
        List<long[]> tensors = parse(shapes);
        List<Long> bad = new ArrayList<>();
        if (alignment <= 1) return bad;
        String t = opType == null ? "" : opType.toLowerCase(Locale.ROOT);
        boolean conv = ConvAlgorithmSearch.isConv(t);
        for (int ti = 0; ti < tensors.size(); ti++) {
            long[] s = tensors.get(ti);
            List<Long> relevant = new ArrayList<>();
            if (conv) {
                if (ti == 0 && s.length >= 3) relevant.add(s[1]);
                if (ti == 1 && s.length >= 3) { relevant.add(s[0]); relevant.add(s[1]); }
            } else if (s.length >= 2) {
                relevant.add(s[s.length - 1]);
                if (ti > 0 || s.length > 2) relevant.add(s[s.length - 2]);
            } else if (s.length == 1 && ti > 0) {
                continue; // bias vectors do not decide tensor-core use
            }
            for (Long d : relevant) if (d % alignment != 0 && !bad.contains(d)) bad.add(d);
        }
        return bad;
    }

    /**
     * @param tcOps number of ops of the profile that ran tensor-core kernels (&gt; 0: mixed precision is on)
     * @return a one-element list with the diagnosis, or empty when neither cause applies
     */
    public static List<Diagnosis> diagnose(OpFact op, double alignment, Number tcOps) {
        boolean anyOpUsesTc = tcOps != null && tcOps.longValue() > 0;
        if (!op.tcEligible() || op.usesTc()) return List.of();
        List<Long> bad = misaligned(op.type(), op.inputShapes(), (long) alignment);
        if (halfPrecision(op.dataType())) {
            return bad.isEmpty() ? List.of() : List.of(new Diagnosis(op, "shape", bad));
        }
        if (anyOpUsesTc && op.dataType() != null) return List.of(new Diagnosis(op, "dtype", bad));
        return List.of();
    }
}
