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
    /** a tuple {@code (..)}, a list {@code [..]} without nested brackets, or DLProf's {@code <..>} */
    private static final Pattern GROUP = Pattern.compile("\\(([^()\\[\\]<>]*)\\)|\\[([^()\\[\\]<>]*)\\]|<([^<>]*)>");
    /** {@code 32} or {@code N:32} */
    private static final Pattern DIM = Pattern.compile("(?:([A-Za-z]+)\\s*:\\s*)?(\\d+)");

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

    /** One tensor's dims, with DLProf's dim labels ({@code N C H W}, {@code K C R S}, {@code M K}) when the text has them. */
    public record Tensor(long[] dims, String[] labels) {
        boolean labelled() {
            for (String l : labels) if (l != null) return true;
            return false;
        }
    }

    /**
     * Parses shapes as readers print them: Python tuples {@code [(32, 3, 32, 32), (6, 3, 3, 3)]} or
     * DLProf's labelled form {@code <N:32, C:3, H:32, W:32>; <K:6, C:3, R:3, S:3>; <6>}. Anything that
     * is not a group of integers is ignored.
     */
    public static List<Tensor> parseTensors(String shapes) {
        List<Tensor> out = new ArrayList<>();
        if (shapes == null) return out;
        Matcher m = GROUP.matcher(shapes);
        while (m.find()) {
            String body = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
            List<Long> dims = new ArrayList<>();
            List<String> labels = new ArrayList<>();
            boolean ok = true;
            for (String part : body.split(",")) {
                String t = part.trim();
                if (t.isEmpty()) continue;
                Matcher d = DIM.matcher(t);
                if (!d.matches()) { ok = false; break; }
                labels.add(d.group(1));
                dims.add(Long.parseLong(d.group(2)));
            }
            if (!ok || dims.isEmpty()) continue;
            long[] a = new long[dims.size()];
            for (int i = 0; i < a.length; i++) a[i] = dims.get(i);
            out.add(new Tensor(a, labels.toArray(new String[0])));
        }
        return out;
    }

    /** Dims only, see {@link #parseTensors}. */
    public static List<long[]> parse(String shapes) {
        List<long[]> out = new ArrayList<>();
        for (Tensor t : parseTensors(shapes)) out.add(t.dims());
        return out;
    }

    /**
     * The dims that decide tensor-core use and are not multiples of {@code alignment}: channels for
     * convolutions (input dim 1, weight dims 0 and 1; labels C and K), the GEMM dims for matrix
     * products (the last two dims of each operand; labels M and K). Bias vectors are ignored, and so
     * is the batch dim of the first operand, which does not decide the kernel choice of a conv.
     */
    public static List<Long> misaligned(String opType, String shapes, long alignment) {
        List<Tensor> tensors = parseTensors(shapes);
        List<Long> bad = new ArrayList<>();
        if (alignment <= 1) return bad;
        String t = opType == null ? "" : opType.toLowerCase(Locale.ROOT);
        boolean conv = ConvAlgorithmSearch.isConv(t);
        for (int ti = 0; ti < tensors.size(); ti++) {
            Tensor tensor = tensors.get(ti);
            long[] s = tensor.dims();
            List<Long> relevant = new ArrayList<>();
            if (s.length == 1 && ti > 0) continue; // bias vectors do not decide tensor-core use
            if (tensor.labelled()) {
                for (int i = 0; i < s.length; i++) {
                    String l = tensor.labels()[i];
                    if (conv ? "C".equals(l) || "K".equals(l) : "M".equals(l) || "K".equals(l)) relevant.add(s[i]);
                }
            } else if (conv) {
                if (ti == 0 && s.length >= 3) relevant.add(s[1]);
                if (ti == 1 && s.length >= 3) { relevant.add(s[0]); relevant.add(s[1]); }
            } else if (s.length >= 2) {
                relevant.add(s[s.length - 1]);
                if (ti > 0 || s.length > 2) relevant.add(s[s.length - 2]);
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
