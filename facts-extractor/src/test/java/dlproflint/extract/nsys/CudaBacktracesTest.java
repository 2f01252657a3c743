package dlproflint.extract.nsys;

import dlproflint.extract.ReadOptions;
import dlproflint.facts.CallSites;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.StackFrame;
import dlproflint.facts.StackFrames;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * nsys CUDA backtraces ({@code --cudabacktrace}, {@code CUDA_CALLCHAINS}). No corpus export was recorded with them,
 * so the variants are the llama3 inference export (nsys 2024, whose RUNTIME table has the {@code callchainId}
 * column) with a {@code CUDA_CALLCHAINS} table added in the layout its own {@code SAMPLING_CALLCHAINS} has, and
 * the kernel launches and synchronisations pointed at chains: native frames (libcudart, libtorch), then Python
 * frames as {@code --python-backtrace=cuda} adds them.
 */
class CudaBacktracesTest {
    private static final String LLAMA = "llama3-inference-nsys2024/real_inference_simulation.sqlite";

    @TempDir
    Path tmp;

    @Test
    void pythonFramesGiveOpsAndApisTheModelsLine() throws Exception {
        Path v = variant("python", "forward:57", "/workspace/llama/model.py", "generate:120", "/workspace/llama/infer.py");
        ProfileFacts f = new NsysSqliteReader().read(v, ReadOptions.DEFAULT);
        CallSites sites = f.callSites();
        assertEquals("nsys CUDA backtraces", sites.source());
        assertNull(sites.hint(), "Python frames were recorded: nothing to add");
        StackFrame sync = StackFrames.firstUser(sites.api("cudaDeviceSynchronize"));
        assertEquals(new StackFrame("/workspace/llama/infer.py", 131, "generate"), sync,
                "the synchronisation's own chain: torch/cuda frames skipped to the user frame");
        long located = f.ops().stream().filter(o -> o.gpuTime().total() > 0 && o.location() != null).count();
        long withGpu = f.ops().stream().filter(o -> o.gpuTime().total() > 0).count();
        assertTrue(withGpu > 0);
        assertEquals(withGpu, located, "every op with kernels gets its kernels' launch site");
        OpFact any = f.ops().stream().filter(o -> o.location() != null).findFirst().orElseThrow();
        assertEquals(new StackFrame("/workspace/llama/model.py", 57, "forward"), any.location());
        assertTrue(any.stack().size() <= StackFrames.MAX_FRAMES);
        assertEquals("/workspace/llama/infer.py", sites.step().get(0).file(), "the training loop: the outermost user frame");
    }

    @Test
    void pythonFramesNamedInTheSymbolAreReadToo() throws Exception {
        Path v = variant("symbol", "forward (/workspace/llama/model.py:57)", "/usr/bin/python3.10",
                "generate (/workspace/llama/infer.py:120)", "/usr/bin/python3.10");
        ProfileFacts f = new NsysSqliteReader().read(v, ReadOptions.DEFAULT);
        assertTrue(f.ops().stream().anyMatch(o -> new StackFrame("/workspace/llama/model.py", 57, "forward").equals(o.location())));
    }

    @Test
    void nativeFramesOnlySayHowToRecordPythonFrames() throws Exception {
        Path v = variant("native", "_PyEval_EvalFrameDefault", "/usr/bin/python3.10", "PyEval_EvalCode", "/usr/bin/python3.10");
        ProfileFacts f = new NsysSqliteReader().read(v, ReadOptions.DEFAULT);
        assertEquals("nsys CUDA backtraces", f.callSites().source());
        assertTrue(f.callSites().hint().contains("--python-backtrace=cuda"), f.callSites().hint());
        assertTrue(f.ops().stream().allMatch(o -> o.location() == null), "no native frame is a source line");
        assertFalse(f.ops().stream().allMatch(o -> o.stack().isEmpty()), "the native stack is kept for the report");
    }

    @Test
    void anEmptyCallchainTableIsNoStackAndSaysWhy() throws Exception {
        Path src = Corpus.file(LLAMA);
        Path v = new Mutations(tmp).sql(src, "empty-callchains", ddl());
        ProfileFacts f = new NsysSqliteReader().read(v, ReadOptions.DEFAULT);
        assertFalse(f.callSites().recorded());
        assertTrue(f.callSites().hint().contains("--cudabacktrace"), f.callSites().hint());
    }

    @Test
    void withoutTheTableNothingChanges() throws Exception {
        ProfileFacts f = new NsysSqliteReader().read(Corpus.file(LLAMA), ReadOptions.DEFAULT);
        assertFalse(f.callSites().recorded());
        assertTrue(f.ops().stream().allMatch(o -> o.stack().isEmpty()));
    }

    @Test
    void framesParse() {
        assertEquals(new StackFrame("/w/model.py", 42, "forward"), CudaBacktraces.frame("forward:42", "/w/model.py"));
        assertEquals(new StackFrame("/w/model.py", 42, "forward"), CudaBacktraces.frame("forward (/w/model.py:42)", "[Unknown]"));
        assertEquals(new StackFrame("model.py", 42, "forward"), CudaBacktraces.frame("model.py(42): forward", "python3"));
        assertEquals(new StackFrame("/w/model.py", 0, "forward"), CudaBacktraces.frame("forward", "/w/model.py"));
        StackFrame nat = CudaBacktraces.frame("cudaLaunchKernel", "/usr/lib/libcudart.so.12");
        assertEquals(0, nat.line());
        assertFalse(StackFrames.isUserFrame(nat));
        assertFalse(StackFrames.isUserFrame(CudaBacktraces.frame("0x7f00", null)));
    }

    /**
     * The llama3 export with backtraces: every kernel launch points at chain 1 (cudart, libtorch, then the two
     * given frames, innermost first), every cudaDeviceSynchronize at chain 2 (cudart, torch/cuda, infer.py:131).
     */
    private Path variant(String name, String inner, String innerModule, String outer, String outerModule) throws Exception {
        boolean nativeOnly = !innerModule.endsWith(".py") && !inner.contains(".py");
        Path src = Corpus.file(LLAMA);
        Path v = new Mutations(tmp).sql(src, name, ddl());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + v); Statement st = c.createStatement()) {
            long base;
            try (ResultSet rs = st.executeQuery("SELECT MAX(id) FROM StringIds")) {
                base = rs.getLong(1) + 1000;
            }
            List<String> strings = List.of("cudaLaunchKernel", "/usr/local/cuda/lib64/libcudart.so.12", "at::native::gemm",
                    "/opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so", inner, innerModule, outer, outerModule,
                    "cudaDeviceSynchronize", nativeOnly ? "THCudaSynchronize" : "synchronize:980",
                    nativeOnly ? "/opt/conda/lib/libtorch_cuda.so" : "/opt/conda/lib/python3.10/site-packages/torch/cuda/__init__.py",
                    nativeOnly ? "_PyEval_EvalFrameDefault" : "generate:131", nativeOnly ? "/usr/bin/python3.10" : "/workspace/llama/infer.py");
            for (int i = 0; i < strings.size(); i++) {
                st.execute("INSERT INTO StringIds (id, value) VALUES (" + (base + i) + ", '" + strings.get(i).replace("'", "''") + "')");
            }
            List<long[]> rows = new ArrayList<>();
            rows.add(new long[] {1, 0, base, base + 1});
            rows.add(new long[] {1, 1, base + 2, base + 3});
            rows.add(new long[] {1, 2, base + 4, base + 5});
            rows.add(new long[] {1, 3, base + 6, base + 7});
            rows.add(new long[] {2, 0, base + 8, base + 1});
            rows.add(new long[] {2, 1, base + 9, base + 10});
            rows.add(new long[] {2, 2, base + 11, base + 12});
            for (long[] r : rows) {
                st.execute("INSERT INTO CUDA_CALLCHAINS (id, stackDepth, symbol, module, unresolved) VALUES ("
                        + r[0] + ", " + r[1] + ", " + r[2] + ", " + r[3] + ", 0)");
            }
            st.execute("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = 1 WHERE correlationId IN "
                    + "(SELECT correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL)");
            st.execute("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = 2 WHERE nameId IN "
                    + "(SELECT id FROM StringIds WHERE value LIKE 'cudaDeviceSynchronize%')");
        }
        return v;
    }

    /** CUDA_CALLCHAINS in the column layout of the export's own SAMPLING_CALLCHAINS. */
    private static String ddl() {
        return "CREATE TABLE CUDA_CALLCHAINS (id INTEGER NOT NULL, symbol INTEGER NOT NULL, module INTEGER NOT NULL, "
                + "kernelMode INTEGER, thumbCode INTEGER, unresolved INTEGER, specialEntry INTEGER, originalIP INTEGER, "
                + "unwindMethod INTEGER, stackDepth INTEGER NOT NULL, PRIMARY KEY (id, stackDepth))";
    }
}
