package dlproflint.facts;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** How a kernel is named for people. */
public final class KernelNames {
    /** Launchers whose short name says nothing: CUTLASS's {@code Kernel}/{@code Kernel2}, CUTLASS 3's {@code device_kernel}. */
    private static final Pattern GENERIC = Pattern.compile("Kernel\\d*|device_kernel|kernel");
    private static final Pattern FIRST_TEMPLATE_ARG = Pattern.compile("<(?:\\w+::)*(\\w+)");

    private KernelNames() {
    }

    /**
     * The short name, except for generic launchers ({@code cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_...>}):
     * then their first template argument, which names the GEMM.
     */
    public static String display(String shortName, String longName) {
        if (shortName == null || longName == null || !GENERIC.matcher(shortName).matches()) return shortName;
        Matcher m = FIRST_TEMPLATE_ARG.matcher(longName);
        return m.find() ? m.group(1) : shortName;
    }
}
