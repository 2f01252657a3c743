package dlproflint.extract.kernels;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.Iteration;
import dlproflint.facts.KernelFact;
import dlproflint.facts.Precision;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import dlproflint.testing.KinetoEvents;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tensor-core shares on current-GPU kernels, on variants made from corpus profiles:
 * <ul>
 *   <li>an H100 trace whose GEMMs become CUTLASS 3 FP8 grouped GEMMs and BF16 GEMMs
 *       ({@code cutlass::device_kernel<...GemmUniversal...>}) and whose attention becomes FlashAttention 3:
 *       the tensor-core time is exactly those kernels' time, and the tensor-core share of the step is the
 *       share their merged intervals cover;</li>
 *   <li>an nsys export whose SGEMMs become tensor-core kernels under NVTX ranges of no tensor-core-eligible
 *       op type (what a TensorRT engine's layer ranges look like): DLProf's tensor-core utilisation stays a
 *       share, 100 % here, where the numerator used to count kernels its denominator left out.</li>
 * </ul>
 */
class TensorCoreShareVariantsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static final String FP8_GROUPED_GEMM = "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<"
            + "cutlass::gemm::GroupProblemShape<cute::tuple<int, int, int> >, cutlass::gemm::collective::CollectiveMma<"
            + "cutlass::gemm::MainloopSm90ArrayTmaGmmaWarpSpecialized<4, cute::tuple<cute::C<2>, cute::C<1>, cute::C<1> >, "
            + "cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperativeFP8FastAccum>, cute::tuple<cute::C<128>, cute::C<128>, "
            + "cute::C<128> >, cutlass::float_e4m3_t, cute::tuple<long, cute::C<1>, cute::C<0> >*, cutlass::float_e4m3_t, "
            + "cute::tuple<long, cute::C<1>, cute::C<0> >*, cute::TiledMMA<cute::MMA_Atom<cute::SM90_64x128x32_F32E4M3E4M3_SS_TN<"
            + "(cute::GMMA::ScaleIn)1, (cute::GMMA::ScaleIn)1> > > > > >(cutlass::gemm::kernel::GemmUniversal<...>::Params)";
    static final String BF16_GEMM = "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, "
            + "cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90TmaGmmaWarpSpecialized<4, cute::tuple<cute::C<1>, "
            + "cute::C<1>, cute::C<1> >, cutlass::gemm::KernelTmaWarpSpecializedCooperative>, cute::tuple<cute::C<128>, cute::C<256>, "
            + "cute::C<64> >, cutlass::bfloat16_t, cute::tuple<long, cute::C<1>, long>, cutlass::bfloat16_t, cute::tuple<long, "
            + "cute::C<1>, long> > > >(cutlass::gemm::kernel::GemmUniversal<...>::Params)";
    static final String FLASH_ATTENTION_3 = "void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<"
            + "flash::CollectiveMainloopFwdSm90<2, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cute::tuple<cute::C<128>, "
            + "cute::C<176>, cute::C<64> >, 64, cutlass::bfloat16_t, float, cutlass::arch::Sm90, true, false, false, true, true, "
            + "true, false, true, true, false, false>, flash::CollectiveEpilogueFwd<cute::tuple<cute::C<128>, cute::C<64>, "
            + "cute::C<64> >, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cutlass::bfloat16_t, cutlass::arch::Sm90, 256, "
            + "true, false, false, false>, flash::StaticPersistentTileScheduler<false> > > >(flash::FlashAttnFwdSm90<...>::Params)";

    @Test
    void cutlass3AndFlashAttention3TimeIsTheTensorCoreTime(@TempDir Path dir) throws Exception {
        Path source = Corpus.file("tracelens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz");
        JsonNode doc;
        try (var in = KinetoEvents.open(source)) {
            doc = JSON.readTree(in);
        }
        Map<Long, String> opOf = new HashMap<>();
        for (JsonNode e : doc.get("traceEvents")) {
            if ("cpu_op".equals(e.path("cat").asText())) opOf.put(e.path("args").path("External id").asLong(-1), e.path("name").asText());
        }
        long renamedNs = 0;
        long allNs = 0;
        List<long[]> renamed = new ArrayList<>();
        int gemms = 0;
        for (JsonNode e : doc.get("traceEvents")) {
            if (!KinetoEvents.isKernel(e)) continue;
            long ts = Math.round(e.get("ts").asDouble() * 1000);
            long dur = Math.round(e.get("dur").asDouble() * 1000);
            allNs += dur;
            String op = opOf.getOrDefault(e.path("args").path("External id").asLong(-2), "");
            String name = switch (op) {
                case "aten::addmm", "aten::mm" -> gemms++ % 2 == 0 ? FP8_GROUPED_GEMM : BF16_GEMM;
                case "aten::_flash_attention_forward" -> FLASH_ATTENTION_3;
                default -> null;
            };
            if (name == null) continue;
            ((ObjectNode) e).put("name", name);
            renamedNs += dur;
            renamed.add(new long[] {ts, ts + dur});
        }
        assertTrue(renamedNs > 0.7 * allNs, "the variant is dominated by the renamed kernels: " + renamedNs + " of " + allNs);
        Path variant = dir.resolve("h100-fp8-cutlass3-fa3.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(variant))) {
            JSON.writeValue(out, doc);
        }

        ProfileFacts f = ProfileReaders.discover().read(variant, ReadOptions.DEFAULT);
        Set<String> tcNames = Set.of(FP8_GROUPED_GEMM, BF16_GEMM, FLASH_ATTENTION_3);
        for (KernelFact k : f.kernels()) {
            assertEquals(tcNames.contains(k.longName()), k.usesTc(), k.longName());
            if (k.longName().equals(FP8_GROUPED_GEMM)) assertEquals(Precision.FP8, k.precision());
            if (k.longName().equals(BF16_GEMM) || k.longName().equals(FLASH_ATTENTION_3)) assertEquals(Precision.BF16, k.precision());
        }
        long tcNs = f.iterations().stream().mapToLong(Iteration::tcTimeNs).sum();
        // the trace's timestamps carry ns fractions; facts parse them exactly, the test rounds per event
        assertEquals(renamedNs, tcNs, renamed.size(), "tensor-core time = the renamed kernels' time");

        // the step window the breakdown covers, and the renamed kernels' merged intervals inside it
        long from = Long.MAX_VALUE, to = Long.MIN_VALUE;
        for (JsonNode e : doc.get("traceEvents")) {
            if ("user_annotation".equals(e.path("cat").asText()) && e.path("name").asText().startsWith("ProfilerStep#")) {
                from = Math.round(e.get("ts").asDouble() * 1000);
                to = from + Math.round(e.get("dur").asDouble() * 1000);
            }
        }
        renamed.sort((x, y) -> Long.compare(x[0], y[0]));
        long covered = 0, curS = Long.MIN_VALUE, curE = Long.MIN_VALUE;
        for (long[] r : renamed) {
            long s = Math.max(r[0], from), e = Math.min(r[1], to);
            if (e <= s) continue;
            if (s > curE) {
                if (curE > curS) covered += curE - curS;
                curS = s;
                curE = e;
            } else {
                curE = Math.max(curE, e);
            }
        }
        if (curE > curS) covered += curE - curS;
        double share = 100.0 * covered / (to - from);
        assertEquals(share, f.breakdown().tcKernelPct(), 0.05, "tensor-core share of the step = the renamed kernels' share");
        // every eligible op ran only these kernels: DLProf's tensor-core utilisation is complete
        assertEquals(100.0, f.breakdown().tcUtilizationPct(), 1e-9);
    }

    @Test
    void tensorCoreKernelsOutsideEligibleOpsKeepTheUtilisationAShare(@TempDir Path dir) throws Exception {
        Path copy = dir.resolve("trt-like.sqlite");
        Files.copy(Corpus.file("llama3-inference-nsys2024/real_inference_simulation.sqlite"), copy);
        long sgemmNs;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement st = c.createStatement()) {
            // the GEMMs of "layer_N_computation" ranges become TensorRT-style FP16 XMMA tensor-core kernels
            st.executeUpdate("UPDATE StringIds SET value = 'sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize128x64x32_stage4_"
                    + "warpsize2x2x1_tensor16x8x16_execute_kernel_trt' WHERE value LIKE '%ampere_sgemm_128x64_nn%'");
            try (ResultSet rs = st.executeQuery("SELECT SUM(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                    + "JOIN StringIds s ON s.id = k.shortName WHERE s.value LIKE 'sm80_xmma%'")) {
                sgemmNs = rs.getLong(1);
            }
        }
        assertTrue(sgemmNs > 0);
        // every step aggregated (--iter-start 0: the first token's step is warm-up), so all renamed kernels count
        ProfileFacts f = ProfileReaders.discover().read(copy, new ReadOptions(null, 0, null));
        long tc = f.kernels().stream().filter(KernelFact::usesTc).mapToLong(k -> k.gpuTime().total()).sum();
        assertEquals(sgemmNs, tc, "every renamed kernel is a tensor-core kernel");
        assertTrue(f.ops().stream().noneMatch(o -> o.tcEligible() && o.gpuTime().total() > o.tcGpuTimeNs()),
                "no eligible op ran other kernels: the eligible work is the tensor-core kernels themselves");
        assertEquals(100.0, f.breakdown().tcUtilizationPct(), 1e-9, "a share, whatever the ops are called");
        assertEquals("8.9", f.gpus().get(0).computeCapability(), "the GPU the export records, not the sm80 lower bound");
    }
}
