package dlproflint.extract.common;

/** Decoding of nsys/CUPTI memory enums (stable values, see ENUM_CUDA_MEMCPY_OPER / ENUM_CUDA_MEM_KIND). */
public final class MemoryKinds {
    private static final String[] COPY = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA",
            "DtoD", "HtoH", "PtoP", "UvmHtoD", "UvmDtoH", "UvmDtoD"};
    private static final String[] MEM = {"Pageable", "Pinned", "Device", "Array", "Managed", "DeviceStatic",
            "ManagedStatic", "Unknown"};

    private MemoryKinds() {
    }

    public static String copyKind(Integer v) {
        return v == null || v < 0 || v >= COPY.length ? "Unknown" : COPY[v];
    }

    public static String memKind(Integer v) {
        return v == null || v < 0 || v >= MEM.length ? "Unknown" : MEM[v];
    }

    public static boolean hostToDevice(String copyKind) {
        return "HtoD".equals(copyKind) || "UvmHtoD".equals(copyKind);
    }

    /** nsys's {@code cuda_memcpy_sync} rule ignores host-to-device copies up to this size. */
    public static final long SMALL_HTOD_BYTES = 64 * 1024;
}
