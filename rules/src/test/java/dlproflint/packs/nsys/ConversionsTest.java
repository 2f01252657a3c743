package dlproflint.packs.nsys;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConversionsTest {
    @Test
    void castsAndTransposesAreConversions() {
        assertTrue(Conversions.isConversion("void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda>"));
        assertTrue(Conversions.isConversion("nchwToNhwcKernel"));
        assertTrue(Conversions.isConversion("Cast_GPU_DT_FLOAT_DT_HALF"));
    }

    @Test
    void broadcastsAreNotCasts() {
        // NCCL's broadcast collective (ResNet DDP's parameter broadcast) once counted as a cast by "cast"
        assertFalse(Conversions.isConversion("ncclKernel_Broadcast_RING_LL_Sum_int8_t"));
        assertFalse(Conversions.isConversion("ncclDevKernel_Broadcast_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"));
        assertFalse(Conversions.isConversion("BroadcastBinaryOpKernel"));
        assertFalse(Conversions.isConversion("gpu_kernel_impl_nocast"));
    }
}
