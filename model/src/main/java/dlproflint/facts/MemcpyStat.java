package dlproflint.facts;

/**
 * GPU memory copies grouped by API, copy kind and memory kinds.
 *
 * @param api      launching API without version suffix ({@code cudaMemcpyAsync}), or {@code unknown}
 * @param copyKind {@code HtoD}, {@code DtoH}, {@code DtoD}, {@code HtoH}, {@code PtoP}, ...
 * @param srcKind  {@code Pageable}, {@code Pinned}, {@code Device}, {@code Managed}, ...
 * @param dstKind  same vocabulary as srcKind
 * @param smallHtoDCount copies of this group that are host-to-device and at most 64 KiB
 */
public record MemcpyStat(String api, String copyKind, String srcKind, String dstKind, long count,
                         long bytes, Stat gpuTime, long smallHtoDCount) {
    public boolean async() {
        return api != null && api.contains("Async");
    }

    public boolean pageable() {
        return "Pageable".equals(srcKind) || "Pageable".equals(dstKind);
    }
}
