package dlproflint.synth;

/**
 * Kernel names seen in real PyTorch/cuDNN/cuBLAS profiles (the corpus and the nsys reference note): fp32 SIMT
 * kernels that tensor-core heuristics must flag, and tensor-core kernels ({@code h884}, {@code s1688},
 * {@code xmma ... tensor16x8x16}) they must recognise.
 */
public final class Kernels {
    private Kernels() {
    }

    // fp32 convolution (cuDNN), real demangled name from the DLProf corpus capture
    public static final KernelSpec CONV_FP32_IMPLICIT = new KernelSpec("implicit_convolve_sgemm",
            "void cudnn::detail::implicit_convolve_sgemm<float, float, (int)128, (int)5, (int)5, (int)3, (int)3, "
                    + "(int)3, (int)1, (bool)1, (bool)0, (bool)1>(int, int, int, const T1 *, int, T2 *, T1 *, "
                    + "kernel_conv_params, int, float, float, int, T2 *, T2 *, int, int)",
            220_000, 73, 900, 1, 1, 8, 8, 1, 2304);
    public static final KernelSpec CONV_FP32_SCUDNN = new KernelSpec("volta_scudnn_128x64_relu_interior_nn_v1",
            "volta_scudnn_128x64_relu_interior_nn_v1", 180_000, 128, 49, 2, 1, 256, 1, 1, 16384);
    public static final KernelSpec CONV_FP32_WGRAD = new KernelSpec("wgrad_alg0_engine",
            "void cudnn::detail::wgrad_alg0_engine<float, (int)128, (int)5, (int)5, (int)3, (int)3, (int)3, "
                    + "(bool)0, (int)512>(int, int, int, const T1 *, int, T1 *, const T1 *, kernel_grad_params, "
                    + "unsigned long long, int, float, int, int, int, int)",
            260_000, 64, 64, 9, 1, 128, 1, 1, 16384);
    public static final KernelSpec CONV_FP32_DGRAD = new KernelSpec("dgrad_engine",
            "void cudnn::detail::dgrad_engine<float, (int)128, (int)6, (int)7, (int)3, (int)3, (int)5, (bool)0>"
                    + "(int, int, int, const T1 *, int, const T1 *, int, T1 *, kernel_grad_params, "
                    + "unsigned long long, int, unsigned long long, int, float, int, int, int)",
            240_000, 64, 98, 1, 1, 128, 1, 1, 12288);
    public static final KernelSpec GEMM_FP32 = new KernelSpec("volta_sgemm_128x64_tn", "volta_sgemm_128x64_tn",
            90_000, 128, 8, 4, 1, 256, 1, 1, 12544);
    public static final KernelSpec GEMM_FP32_NN = new KernelSpec("volta_sgemm_128x64_nn", "volta_sgemm_128x64_nn",
            85_000, 128, 8, 4, 1, 256, 1, 1, 12544);

    // tensor-core kernels
    public static final KernelSpec CONV_TC = new KernelSpec(
            "sm80_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_g1_tensor16x8x16",
            "sm80_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_g1_tensor16x8x16",
            70_000, 168, 98, 1, 1, 128, 1, 1, 0);
    public static final KernelSpec CONV_TC_VOLTA = new KernelSpec("volta_h884cudnn_256x64_ldg8_relu_exp_medium_nhwc_tn_v1",
            "volta_h884cudnn_256x64_ldg8_relu_exp_medium_nhwc_tn_v1", 75_000, 232, 49, 1, 1, 256, 1, 1, 49152);
    public static final KernelSpec GEMM_TC = new KernelSpec("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn",
            "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn", 30_000, 230, 8, 4, 1, 128, 1, 1, 0);
    public static final KernelSpec GEMM_TC_VOLTA = new KernelSpec("volta_h884gemm_128x64_ldg8_nn",
            "volta_h884gemm_128x64_ldg8_nn", 32_000, 168, 8, 4, 1, 128, 1, 1, 0);

    // memory-bound kernels (never tensor-core candidates)
    public static final KernelSpec RELU = new KernelSpec("vectorized_elementwise_kernel",
            "void at::native::vectorized_elementwise_kernel<(int)4, at::native::<unnamed>::clamp_min_scalar_kernel_impl"
                    + "(at::TensorIteratorBase &, c10::Scalar)::[lambda() (instance 1)]::operator ()() const::"
                    + "[lambda() (instance 8)]::operator ()() const::[lambda(float) (instance 1)], "
                    + "at::detail::Array<char *, (int)2>>(int, T2, T3)",
            12_000, 16, 1350, 1, 1, 128, 1, 1, 0);
    public static final KernelSpec ADD = new KernelSpec("vectorized_elementwise_kernel",
            "void at::native::vectorized_elementwise_kernel<(int)4, at::native::CUDAFunctor_add<float>, "
                    + "at::detail::Array<char *, (int)3>>(int, T2, T3)",
            9_000, 20, 1350, 1, 1, 128, 1, 1, 0);
    public static final KernelSpec RELU_BACKWARD = new KernelSpec("vectorized_elementwise_kernel",
            "void at::native::vectorized_elementwise_kernel<(int)4, at::native::threshold_kernel_impl<float>"
                    + "(at::TensorIteratorBase &, T1, T1)::[lambda(float, float) (instance 1)], "
                    + "at::detail::Array<char *, (int)3>>(int, T2, T3)",
            14_000, 20, 1350, 1, 1, 128, 1, 1, 0);
    public static final KernelSpec BATCH_NORM = new KernelSpec("bn_fw_tr_1C11_kernel_NCHW",
            "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, (int)512, (bool)1, (int)1>(cudnnTensorStruct, "
                    + "const T1 *, cudnnTensorStruct, T1 *, const T2 *, const T2 *, T2, T2, T2 *, T2 *, T2 *, T2 *, T2, T2)",
            25_000, 32, 64, 1, 1, 512, 1, 1, 4096);
    public static final KernelSpec BATCH_NORM_BACKWARD = new KernelSpec("bn_bw_1C11_kernel_new",
            "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, (int)512, (bool)1, (int)1>(T1, T1, T1, T1, "
                    + "cudnnTensorStruct, const T1 *, cudnnTensorStruct, const T1 *, cudnnTensorStruct, T1 *, "
                    + "const T2 *, T2 *, T2 *, const T2 *, const T2 *, T2)",
            40_000, 32, 64, 1, 1, 512, 1, 1, 8192);
    public static final KernelSpec MAX_POOL = new KernelSpec("max_pool_forward_nchw",
            "void at::native::<unnamed>::max_pool_forward_nchw<float, float>(int, const T1 *, long, long, long, int, "
                    + "int, int, int, int, int, int, int, int, int, T1 *, long *)",
            18_000, 30, 338, 1, 1, 256, 1, 1, 0);
    public static final KernelSpec SGD_STEP = new KernelSpec("multi_tensor_apply_kernel",
            "void at::native::<unnamed>::multi_tensor_apply_kernel<at::native::<unnamed>::TensorListMetadata<(int)3>, "
                    + "at::native::<unnamed>::SgdFunctor<float, (int)3>, float, float>(T1, T2, T3...)",
            45_000, 40, 320, 1, 1, 512, 1, 1, 0);
    public static final KernelSpec FILL = new KernelSpec("vectorized_elementwise_kernel",
            "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, "
                    + "at::detail::Array<char *, (int)1>>(int, T2, T3)",
            4_000, 16, 320, 1, 1, 128, 1, 1, 0);
}
