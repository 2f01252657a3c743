package dlproflint.extract.common;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * DLProf op ids: the op type in upper case, an underscore and a 1-based counter per type in order of
 * first appearance ({@code conv2d} → {@code CONV2D_1}, {@code uniform_} → {@code UNIFORM__1},
 * {@code cudaDeviceSynchronize_v3020} → {@code CUDADEVICESYNCHRONIZE_V3020_1}). Call {@link #next} in
 * first-appearance order.
 */
public final class OpIds {
    private final Map<String, Integer> counters = new HashMap<>();

    public String next(String opType) {
        String prefix = prefix(opType);
        int n = counters.merge(prefix, 1, Integer::sum);
        return prefix + "_" + n;
    }

    public static String prefix(String opType) {
        String t = opType == null || opType.isEmpty() ? "OP" : opType;
        return t.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9_]", "_");
    }
}
