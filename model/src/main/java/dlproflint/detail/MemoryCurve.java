package dlproflint.detail;

import java.util.List;

/**
 * Device memory over time, per device: what PyTorch's caching allocator had allocated to tensors and reserved from
 * the driver ({@code [memory]} events of {@code profile_memory=True}), or what cudaMalloc had handed out (nsys
 * {@code --cuda-memory-usage}, where both curves are the same). Curves are reduced to at most {@link #MAX_POINTS}
 * points, each keeping the highest value it stands for, so the peak survives.
 *
 * @param source what the curves measure
 */
public record MemoryCurve(String source, List<Device> devices) implements java.io.Serializable {
    public static final int MAX_POINTS = 2_000;

    public MemoryCurve {
        devices = List.copyOf(devices);
    }

    /**
     * One device's curve.
     *
     * @param peakOp the op (or API call) running when allocation peaked, or null when unknown
     * @param capacity the device's memory, 0 when unknown
     */
    public record Device(int deviceId, long[] timeNs, long[] allocated, long[] reserved, long peakNs, long peakAllocated,
                         long peakReserved, String peakOp, long capacity, long events) implements java.io.Serializable {
    }
}
