package dlproflint.extract.kernels;

import dlproflint.facts.Precision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The catalogue's data and classifier: entries, precision tokens, architecture bounds, malformed data. */
class KernelCatalogueTest {
    private final KernelCatalogue catalogue = KernelCatalogue.builtin();

    /** What a kernel computes is decided here, once per name: rules read {@code KernelFact.kind}, never the name. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
        ampere_sgemm_128x64_nn | | GEMM
        nvjet_qqtst_128x128_128x6_2x1_v_bz_coopA_algo | | GEMM
        Kernel | void cutlass::Kernel<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params) | GEMM
        implicit_convolve_sgemm | | CONV
        cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1 | | CONV
        sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8 | | CONV
        flash_fwd_kernel | void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, false, false>(pytorch_flash::Flash_fwd_params) | ATTENTION
        ncclDevKernel_AllReduce_Sum_f32_RING_LL | | COMMUNICATION
        permute_indices_weights_kernel | void fbgemm_gpu::permute_indices_weights_kernel<true, int, float>(int, int, int) | OTHER
        vectorized_elementwise_kernel | | OTHER
        """)
    void kindOfKernel(String shortName, String longName, dlproflint.facts.KernelKind kind) {
        assertEquals(kind, catalogue.classify(shortName, longName == null ? shortName : longName).kind(), shortName);
        if (longName != null) assertEquals(kind, catalogue.classify(longName).kind(), longName + " alone");
    }

    @Test
    void everyEntryClassifiesItsOwnExample() {
        assertTrue(catalogue.entries().size() > 40, "catalogue loaded");
        for (CatalogueEntry e : catalogue.entries()) {
            assertSame(e, catalogue.entryFor(e.example()), "line " + e.line() + " (" + e.family() + "): its example "
                    + e.example() + " is taken by line " + lineOf(catalogue.entryFor(e.example())));
        }
    }

    private static String lineOf(CatalogueEntry e) {
        return e == null ? "no entry" : e.line() + " (" + e.family() + ")";
    }

    /** name | family | precision | tensor cores | lowest compute capability */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
        void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::GroupProblemShape<cute::tuple<int, int, int>>, cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90ArrayTmaGmmaWarpSpecializedFP8FastAccum<4, cute::tuple<cute::C<2>, cute::C<1>, cute::C<1>>, cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperativeFP8FastAccum>, cute::tuple<cute::C<128>, cute::C<128>, cute::C<128>>, cutlass::float_e4m3_t, cute::tuple<long, cute::C<1>, cute::C<0>>*, cutlass::float_e4m3_t>>>(...) | cutlass3-tc | FP8 | true | 9.0
        void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90TmaGmmaWarpSpecialized<4>, cutlass::bfloat16_t, cutlass::bfloat16_t, float>>>(...) | cutlass3-tc | BF16 | true | 9.0
        void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<flash::CollectiveMainloopFwdSm90<2, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1>>, cute::tuple<cute::C<128>, cute::C<128>, cute::C<128>>, 128, cutlass::bfloat16_t, float>>>>(...) | flash-attention-3 | BF16 | true | 9.0
        void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, false, false>(pytorch_flash::Flash_fwd_params) | flash-attention-2 | BF16 | true | 8.0
        void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 64, 64, 4, false, false, cutlass::half_t>, false, true>(Flash_fwd_params) | flash-attention-2 | FP16 | true | 8.0
        nvjet_tst_144x128_64x6_2x1_v_bz_bias_TNN | cublaslt-nvjet | BF16 | true | 9.0
        nvjet_hsh_256x128_64x4_1x2_h_bz_coopA_NNT | cublaslt-nvjet | FP16 | true | 9.0
        sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas | xmma-gemm-conv | BF16 | true | 9.0
        sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer | xmma-gemm-conv | TF32 | true | 8.0
        sm86_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_g1_tensor16x8x16 | xmma-gemm-conv | FP16 | true | 8.6
        void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_16x4_nn_align4>(cutlass_80_tensorop_s1688gemm_128x128_16x4_nn_align4::Params) | cutlass2-tc | TF32 | true | 8.0
        void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_align8::Params) | cutlass2-tc | BF16 | true | 8.0
        void cutlass::Kernel<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params) | cutlass2-simt | FP32 | false | 8.0
        volta_h884cudnn_256x64_ldg8_relu_exp_medium_nhwc_tn_v1 | cublas-cudnn-tc | FP16 | true | 7.0
        ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_nn | cublas-cudnn-tc | BF16 | true | 8.0
        volta_sgemm_128x64_nt | cublas-cudnn-simt | FP32 | false | 7.0
        ampere_sgemm_128x64_nn | cublas-cudnn-simt | FP32 | false | 8.0
        cudnn_infer_volta_scudnn_128x64_relu_medium_nn_v1 | cublas-cudnn-simt | FP32 | false | 7.0
        trt_volta_h884cudnn_256x128_ldg8_relu_exp_small_nhwc_tn_v1 | tensorrt-tc | FP16 | true | 7.0
        bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x16x256u2_s3_et128x16_m128x16x32_cga1x1x1_16dp256b_rM_TN_transOut_schedP2x1x2x3_biasM_bN_tmaOpt_clmp_dynBatch_sm100f | trtllm-gen-gemm | FP4 | true | 10.0
        void deep_gemm::fp8_gemm_kernel<128u, 128u, 128u, 8u, 128u, 4u, 1u, 2u>(...) | deepgemm | FP8 | true | -1.-1
        triton_tem_fused_addmm_0 | triton-gemm | | true | 8.0
        triton_poi_fused_add_cos_sin_0 | triton-pointwise | | false | -1.-1
        void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>) | pytorch-native | BF16 | false | -1.-1
        ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>) | nccl | | false | -1.-1
        """)
    void realNamesAreClassified(String name, String family, String precision, boolean tc, String cc) {
        KernelClass c = catalogue.classify(name);
        assertEquals(family, c.family(), name);
        assertEquals(precision == null ? null : Precision.valueOf(precision), c.precision(), name);
        assertEquals(tc, c.tensorCores(), name);
        assertEquals(cc, c.minMajor() + "." + c.minMinor(), name);
    }

    @Test
    void theLongNameDecidesAndTheShortOneIsTheFallback() {
        KernelClass c = catalogue.classify("Kernel", "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4>(...)");
        assertEquals("cutlass2-tc", c.family());
        assertEquals("cudnn-conv-simt", catalogue.classify("implicit_convolve_sgemm", "unrecognisable long name").family());
        assertFalse(catalogue.classify("attn_fwd", "attn_fwd").known(), "a bare name the catalogue cannot place stays unknown");
        assertSame(KernelClass.UNKNOWN, catalogue.classify(null));
    }

    @Test
    void aHostileNameIsSearchedInBoundedTime() {
        String huge = "void cutlass::device_kernel<" + "a".repeat(5_000_000) + "Sm90";
        // a guard against backtracking (which would take hours), not a speed target: generous for a loaded machine
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(120), () -> catalogue.classify(huge));
    }

    @Test
    void malformedDataNamesItsLine() {
        List<String> tokens = List.of("fp32\tfloat");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelCatalogue.parse(
                List.of("# header", "sgemm\tx\tfp32\tmaybe\t-\tsrc\tsgemm"), tokens));
        assertTrue(e.getMessage().contains("line 2") && e.getMessage().contains("tensor_cores"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> KernelCatalogue.parse(
                List.of("sgemm(\tx\tfp32\tno\t-\tsrc\tsgemm"), tokens));
        assertTrue(e.getMessage().contains("bad pattern"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> KernelCatalogue.parse(
                List.of("sgemm\tx\tfp33\tno\t-\tsrc\tsgemm"), tokens));
        assertTrue(e.getMessage().contains("unknown precision 'fp33'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> KernelCatalogue.parse(
                List.of("sgemm\tx\tfp32\tno\t-\t\t"), tokens));
        assertTrue(e.getMessage().contains("source and an example"), e.getMessage());
    }

    @Test
    void unknownKernelTimeIsReportedWithItsShare() {
        KernelMix mix = new KernelMix();
        mix.add("volta_sgemm_128x64_nt", catalogue.classify("volta_sgemm_128x64_nt"), 300);
        mix.add("my_custom_kernel", catalogue.classify("my_custom_kernel"), 100);
        mix.add("my_custom_kernel", catalogue.classify("my_custom_kernel"), 100);
        assertEquals(1, mix.unknownNames());
        assertTrue(mix.warning().startsWith("1 kernel name is not in the kernel catalogue (40.0% of kernel time, e.g. my_custom_kernel)"),
                mix.warning());
        KernelMix known = new KernelMix();
        known.add("volta_sgemm_128x64_nt", catalogue.classify("volta_sgemm_128x64_nt"), 300);
        assertEquals(null, known.warning());
    }
}
