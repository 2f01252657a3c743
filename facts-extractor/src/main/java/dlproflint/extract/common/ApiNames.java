package dlproflint.extract.common;

import java.util.regex.Pattern;

/** CUDA runtime/driver API names as recorded by profilers, and their categories. */
public final class ApiNames {
    /** nsys keeps CUPTI's ABI version suffix ({@code cudaLaunchKernel_v7000}); real API names end in {@code _v2} at most. */
    private static final Pattern VERSION_SUFFIX = Pattern.compile("_v\\d{4,}$");

    private ApiNames() {
    }

    /** {@code cudaMemcpyAsync_v3020} → {@code cudaMemcpyAsync}; {@code cudaGetDeviceProperties_v2_v12000} → {@code cudaGetDeviceProperties_v2}. */
    public static String normalize(String raw) {
        if (raw == null) return "unknown";
        return VERSION_SUFFIX.matcher(raw).replaceFirst("");
    }

    /** One of {@code launch, sync, memcpy, memset, malloc, free, other} for a normalized name. */
    public static String category(String name) {
        String n = name.toLowerCase(java.util.Locale.ROOT);
        if (n.contains("launch")) return "launch";
        if (n.contains("synchronize") || n.equals("cudastreamwaitevent") || n.equals("cuStreamWaitEvent".toLowerCase())) return "sync";
        if (n.startsWith("cudamemcpy") || n.startsWith("cumemcpy") || n.startsWith("cudamemprefetch") || n.startsWith("cumemprefetch")) return "memcpy";
        if (n.startsWith("cudamemset") || n.startsWith("cumemset") || n.startsWith("cumemsetd")) return "memset";
        if (n.contains("malloc") || n.contains("hostalloc") || n.startsWith("cumemalloc") || n.startsWith("cumemcreate")) return "malloc";
        if (n.contains("free")) return "free";
        return "other";
    }

    /** Host-blocking synchronisation APIs ({@code nsys analyze cuda_api_sync}), as name prefixes. */
    public static final java.util.List<String> SYNCHRONIZING = java.util.List.of("cudaDeviceSynchronize",
            "cudaStreamSynchronize", "cudaEventSynchronize", "cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize");

    /** Whether a (normalized) API name blocks the host until the GPU work it waits for is done. */
    public static boolean synchronizing(String name) {
        for (String p : SYNCHRONIZING) if (name.startsWith(p)) return true;
        return false;
    }
}
