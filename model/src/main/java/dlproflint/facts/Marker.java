package dlproflint.facts;

/**
 * What the profile's annotations look like, so rules can tell "no emit_nvtx" from "no NVTX at all".
 *
 * @param nvtxRanges     number of NVTX/user ranges read
 * @param atenRanges     ranges in PyTorch emit_nvtx style ({@code aten::...})
 * @param dlprofMarkers  DLProf plugin dict markers ({@code traceMarker}/{@code mod}/{@code op})
 * @param textIdRanges   ranges whose text is a registered string (e.g. TensorRT)
 * @param xlaOps         ops or kernels that come from XLA clusters
 * @param daliOps        ops that come from NVIDIA DALI
 */
public record Marker(long nvtxRanges, long atenRanges, long dlprofMarkers, long textIdRanges,
                     long xlaOps, long daliOps) {
    public static Marker none() {
        return new Marker(0, 0, 0, 0, 0, 0);
    }
}
