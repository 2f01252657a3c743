package dlproflint.extract.common;

import java.util.List;
import java.util.Set;

/**
 * Calls that block the host until the GPU has caught up: the synchronising CUDA APIs ({@code nsys analyze
 * cuda_api_sync}) and the PyTorch ops that copy a GPU value to the host ({@code tensor.item()},
 * {@code bool(tensor)}, data-dependent shapes such as {@code nonzero}).
 */
public final class SyncPoints {
    /** Synchronising API names, as prefixes of normalised names. */
    public static final List<String> APIS = List.of("cudaDeviceSynchronize", "cudaStreamSynchronize",
            "cudaEventSynchronize", "cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize");
    /** ATen ops that wait for a GPU result on the host. */
    public static final Set<String> OPS = Set.of("aten::item", "aten::_local_scalar_dense", "aten::nonzero",
            "aten::is_nonzero", "aten::equal");

    private SyncPoints() {
    }

    public static boolean blockingApi(String normalizedName) {
        for (String p : APIS) if (normalizedName.startsWith(p)) return true;
        return false;
    }

    public static boolean blockingOp(String name) {
        return OPS.contains(name);
    }
}
