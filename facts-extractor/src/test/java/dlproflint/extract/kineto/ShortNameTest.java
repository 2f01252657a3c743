package dlproflint.extract.kineto;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Kernel short names from Kineto's demangled names, as nsys's {@code shortName} gives them. */
class ShortNameTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
        void cudnn::detail::explicit_convolve_sgemm<float, int, 1024, 5, 5, 3, 3, 3, 0, false>(int, int, float const*) | explicit_convolve_sgemm
        std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, float, float, float, false, true, true, false, 7, cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float> >(cublasGemvParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float>) | kernel
        void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, true>(float*, float const*, int, int, int) | softmax_warp_forward
        at::cuda::(anonymous namespace)::spin_kernel(long) | spin_kernel
        void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>) | vectorized_elementwise_kernel
        volta_sgemm_128x64_nt | volta_sgemm_128x64_nt
        nvjet_tst_144x128_64x6_2x1_v_bz_bias_TNN | nvjet_tst_144x128_64x6_2x1_v_bz_bias_TNN
        """)
    void functionNameWithoutReturnTypeNamespaceOrTemplates(String longName, String shortName) {
        assertEquals(shortName, KinetoFactsBuilder.shortName(longName));
    }
}
