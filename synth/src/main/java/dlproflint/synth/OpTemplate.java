package dlproflint.synth;

import java.util.List;

/**
 * How one PyTorch op shows up in a profile: its {@code emit_nvtx} range chain (outermost first, e.g.
 * {@code aten::conv2d > aten::convolution > aten::_convolution > aten::cudnn_convolution}), the
 * {@code torch.nn.functional} call DLProf's plugin wraps it in, its fp32 and tensor-core kernels, and its
 * autograd backward node.
 */
public record OpTemplate(String op, String module, List<String> atenChain, String inputShapes,
                         List<KernelSpec> fp32Kernels, List<KernelSpec> tcKernels, String backwardName,
                         List<KernelSpec> backwardFp32Kernels, List<KernelSpec> backwardTcKernels) {

    public static final OpTemplate CONV2D = new OpTemplate("conv2d", "torch.nn.functional",
            List.of("aten::conv2d", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution"),
            "(32, 64, 56, 56)|(64, 64, 3, 3)",
            List.of(Kernels.CONV_FP32_IMPLICIT), List.of(Kernels.CONV_TC_VOLTA),
            "CudnnConvolutionBackward0", List.of(Kernels.CONV_FP32_DGRAD, Kernels.CONV_FP32_WGRAD),
            List.of(Kernels.CONV_TC_VOLTA, Kernels.CONV_TC_VOLTA));
    public static final OpTemplate BATCH_NORM = new OpTemplate("batch_norm", "torch.nn.functional",
            List.of("aten::batch_norm", "aten::_batch_norm_impl_index", "aten::cudnn_batch_norm"),
            "(32, 64, 56, 56)|(64,)|(64,)",
            List.of(Kernels.BATCH_NORM), List.of(Kernels.BATCH_NORM),
            "CudnnBatchNormBackward0", List.of(Kernels.BATCH_NORM_BACKWARD), List.of(Kernels.BATCH_NORM_BACKWARD));
    public static final OpTemplate RELU = new OpTemplate("relu", "torch.nn.functional",
            List.of("aten::relu", "aten::clamp_min"), "(32, 64, 56, 56)",
            List.of(Kernels.RELU), List.of(Kernels.RELU),
            "ReluBackward0", List.of(Kernels.RELU_BACKWARD), List.of(Kernels.RELU_BACKWARD));
    public static final OpTemplate ADD = new OpTemplate("add", "torch", List.of("aten::add"),
            "(32, 64, 56, 56)|(32, 64, 56, 56)", List.of(Kernels.ADD), List.of(Kernels.ADD),
            "AddBackward0", List.of(Kernels.ADD), List.of(Kernels.ADD));
    public static final OpTemplate MAX_POOL = new OpTemplate("max_pool2d", "torch.nn.functional",
            List.of("aten::max_pool2d", "aten::max_pool2d_with_indices"), "(32, 64, 112, 112)",
            List.of(Kernels.MAX_POOL), List.of(Kernels.MAX_POOL),
            "MaxPool2DWithIndicesBackward0", List.of(Kernels.FILL, Kernels.MAX_POOL), List.of(Kernels.FILL, Kernels.MAX_POOL));
    public static final OpTemplate LINEAR = new OpTemplate("linear", "torch.nn.functional",
            List.of("aten::linear", "aten::addmm"), "(32, 512)|(1000, 512)|(1000,)",
            List.of(Kernels.GEMM_FP32), List.of(Kernels.GEMM_TC_VOLTA),
            "AddmmBackward0", List.of(Kernels.GEMM_FP32_NN, Kernels.GEMM_FP32), List.of(Kernels.GEMM_TC_VOLTA, Kernels.GEMM_TC_VOLTA));

    /** A ResNet basic block and its head, repeated: conv, bn, relu, conv, bn, add, relu, ... pool, linear. */
    public static final List<OpTemplate> RESNET_LIKE = List.of(CONV2D, BATCH_NORM, RELU, MAX_POOL, CONV2D, BATCH_NORM,
            RELU, CONV2D, BATCH_NORM, ADD, RELU, LINEAR);
}
