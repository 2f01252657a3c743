package dlproflint.facts;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Op types as the readers give them, one kind each: tensor-core eligibility and the speed-up class come from it. */
class OpKindTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
        conv2d | CONV
        aten::cudnn_convolution | CONV
        ConvolutionBackward0 | CONV
        Conv2DBackpropInput | CONV
        mkldnn_convolution | CONV
        aten::addmm | GEMM
        linear | GEMM
        AddmmBackward0 | GEMM
        aten::_scaled_mm | GEMM
        BatchMatMulV2 | GEMM
        fully_connected | GEMM
        aten::scaled_dot_product_attention | ATTENTION
        aten::_scaled_dot_product_flash_attention | ATTENTION
        lstm | RNN
        einsum | OTHER_TENSOR_CORE
        aten::upsample_bilinear2d | OTHER
        aten::relu | OTHER
        convert_element_type | OTHER
        cuda | OTHER
        """)
    void kindOfOpType(String type, OpKind kind) {
        assertEquals(kind, OpKind.of(type), type);
        assertEquals(kind != OpKind.OTHER, OpKind.of(type).tensorCoreEligible(), type + " eligible");
    }
}
