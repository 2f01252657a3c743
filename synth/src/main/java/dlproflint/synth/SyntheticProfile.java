package dlproflint.synth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Writes a synthetic Nsight Systems SQLite export by replaying a program's timeline: NVTX ranges, CUDA API
 * calls and the GPU work they cause, with CPU and GPU clocks that behave like the real thing (kernels queue
 * behind each other on the device; synchronous copies and {@code cudaDeviceSynchronize} block the CPU until
 * the GPU drains; CPU gaps leave the GPU idle).
 *
 * <pre>{@code
 * try (SyntheticProfile p = SyntheticProfile.options().gpus(GpuModel.A100_SXM4_40GB, 1).seed(7).open(file)) {
 *     p.push("aten::conv2d, seq = 0").kernel(Kernels.CONV_FP32_IMPLICIT).kernel(Kernels.RELU).pop();
 *     p.push("never closed");           // written with end = NULL
 * }
 * }</pre>
 *
 * One process per GPU ({@link #rank(int)}), as DistributedDataParallel runs; correlation ids restart in every
 * process, as CUPTI's do, so readers must match them per process. Nothing is kept per event except the open
 * NVTX ranges of each thread: the generator streams, so it writes millions of launches in constant memory.
 * Deterministic: the same options, seed and calls produce the same rows.
 */
public final class SyntheticProfile implements AutoCloseable {
    // NVTX event types (ENUM_NSYS_EVENT_TYPE)
    static final int NVTX_MARK = 34;
    static final int NVTX_PUSH_POP = 59;
    static final int NVTX_START_END = 60;
    // memcpy kinds (ENUM_CUDA_MEMCPY_OPER) and memory kinds (ENUM_CUDA_MEM_KIND)
    public static final int HTOD = 1;
    public static final int DTOH = 2;
    public static final int DTOD = 8;
    static final int MEM_PAGEABLE = 0;
    static final int MEM_PINNED = 1;
    static final int MEM_DEVICE = 2;

    private static final long OPEN = -2;
    private static final int CONTEXT = 1;
    private static final int STREAM = 7;

    private final Options options;
    private final NsysDbWriter db;
    private final SplittableRandom random;
    private final List<Rank> ranks = new ArrayList<>();
    private final Map<String, NsysDbWriter.KernelShape> shapes = new LinkedHashMap<>();
    private Rank rank;
    private long nextRangeId = 1;
    private final Map<Long, NvtxRow> openStartEnd = new LinkedHashMap<>();
    private long minTime = Long.MAX_VALUE;
    private long maxTime = Long.MIN_VALUE;
    private final long[] counts = new long[Count.values().length];
    private boolean closed;

    /** What {@link #counts()} counts. */
    public enum Count { KERNELS, API_CALLS, NVTX_EVENTS, MEMCPYS, MEMSETS, SYNCS }

    private SyntheticProfile(Options options, Path file) throws IOException {
        this.options = options;
        this.random = new SplittableRandom(options.seed);
        this.db = new NsysDbWriter(file, options.schema);
        try {
            for (int r = 0; r < options.processes; r++) ranks.add(new Rank(r));
            rank = ranks.get(0);
            writeStaticTables();
        } catch (RuntimeException | IOException e) {
            db.abort();
            throw e;
        }
    }

    public static Options options() {
        return new Options();
    }

    // ---------------------------------------------------------------------------------------------- threads

    /** Continue as the process that drives GPU {@code r} (0-based), on its main thread. */
    public SyntheticProfile rank(int r) {
        if (r < 0 || r >= ranks.size()) throw new IllegalArgumentException("no rank " + r + " (processes: " + ranks.size() + ")");
        rank = ranks.get(r);
        rank.current = rank.threads.get(0);
        return this;
    }

    /** Continue on another thread of the current process (created and named on first use). */
    public SyntheticProfile thread(String name) {
        for (ThreadState t : rank.threads) {
            if (t.name.equals(name)) {
                rank.current = t;
                return this;
            }
        }
        ThreadState t = new ThreadState(name, rank.pid, rank.pid + rank.threads.size());
        rank.threads.add(t);
        rank.current = t;
        db.row("ThreadNames", "nameId", "priority", "globalTid").values(db.string(name), 20, t.globalTid);
        return this;
    }

    /** Back to the main thread of the current process. */
    public SyntheticProfile mainThread() {
        rank.current = rank.threads.get(0);
        return this;
    }

    /** CPU time passes with no CUDA call (Python work, data loading): the GPU idles if it has nothing queued. */
    public SyntheticProfile cpu(long ns) {
        rank.cpu += ns;
        return this;
    }

    /** The current CPU clock of this process (ns). */
    public long now() {
        return rank.cpu;
    }

    // ------------------------------------------------------------------------------------------------- NVTX

    /** Opens a push/pop range with an ASCII message (what PyTorch's emit_nvtx and DLProf's plugin emit). */
    public SyntheticProfile push(String text) {
        rank.cpu += vary(1_500);
        NvtxRow row = new NvtxRow(rank.cpu, NVTX_PUSH_POP, text, -1, 0);
        ThreadState t = rank.current;
        t.stack.push(row);
        t.pending.add(row);
        return this;
    }

    /** Opens a push/pop range whose message is a registered string ({@code textId}) in an NVTX domain (TensorRT style). */
    public SyntheticProfile pushRegistered(String text, int domainId) {
        rank.cpu += vary(1_500);
        NvtxRow row = new NvtxRow(rank.cpu, NVTX_PUSH_POP, null, db.string(text), domainId);
        rank.current.stack.push(row);
        rank.current.pending.add(row);
        return this;
    }

    /** Closes the innermost open push/pop range of the current thread. */
    public SyntheticProfile pop() {
        ThreadState t = rank.current;
        if (t.stack.isEmpty()) throw new IllegalStateException("pop() without an open range on thread " + t.name);
        rank.cpu += vary(1_000);
        t.stack.pop().end = rank.cpu;
        rank.cpu += 200;
        flushClosed(t);
        return this;
    }

    /** {@code push(text)}, the body, {@code pop()}. */
    public SyntheticProfile range(String text, java.util.function.Consumer<SyntheticProfile> body) {
        push(text);
        body.accept(this);
        return pop();
    }

    /** An instantaneous NVTX mark ({@code end} is NULL). */
    public SyntheticProfile mark(String text) {
        rank.cpu += vary(800);
        NvtxRow row = new NvtxRow(rank.cpu, NVTX_MARK, text, -1, 0);
        row.end = -1;
        rank.current.pending.add(row);
        flushClosed(rank.current);
        return this;
    }

    /** Opens a process-wide start/end range; returns its id for {@link #endRange(long)} (possibly on another thread). */
    public long startRange(String text) {
        rank.cpu += vary(1_500);
        NvtxRow row = new NvtxRow(rank.cpu, NVTX_START_END, text, -1, 0);
        row.rangeId = nextRangeId++;
        rank.current.pending.add(row);
        openStartEnd.put(row.rangeId, row);
        return row.rangeId;
    }

    public SyntheticProfile endRange(long rangeId) {
        NvtxRow row = openStartEnd.remove(rangeId);
        if (row == null) throw new IllegalStateException("no open start/end range " + rangeId);
        rank.cpu += vary(1_000);
        row.end = rank.cpu;
        row.endGlobalTid = rank.current.globalTid;
        for (Rank r : ranks) for (ThreadState t : r.threads) flushClosed(t);
        return this;
    }

    /**
     * The {@code {"model_config": {...}}} range DLProf's PyTorch plugin writes once per run (observed as a short
     * push/pop range). Keys as in DLProf's {@code read_only_model_config}, e.g. {@code emit_nvtx},
     * {@code cudnn_benchmark_disabled}, {@code amp_enabled}, {@code num_workers}, {@code pin_memory}.
     */
    public SyntheticProfile modelConfig(Map<String, ?> config) {
        StringBuilder json = new StringBuilder("{\"model_config\": {");
        boolean first = true;
        for (Map.Entry<String, ?> e : config.entrySet()) {
            if (!first) json.append(", ");
            first = false;
            json.append('"').append(e.getKey()).append("\": ");
            Object v = e.getValue();
            json.append(v instanceof String ? "\"" + v + "\"" : String.valueOf(v));
        }
        json.append("}}");
        return push(json.toString()).pop();
    }

    // ----------------------------------------------------------------------------------------- CUDA calls

    /** {@code cudaLaunchKernel} and the kernel it launches (GPU time ≈ {@code spec.meanNs()} ± 10 %). */
    public SyntheticProfile kernel(KernelSpec spec) {
        return kernel(spec, vary(spec.meanNs()));
    }

    /** A kernel with an exact GPU duration (hand-made test profiles). */
    public SyntheticProfile kernel(KernelSpec spec, long gpuNs) {
        long apiStart = rank.cpu += vary(300);
        long apiEnd = apiStart + vary(5_000);
        long corr = apiCall("cudaLaunchKernel_v7000", apiStart, apiEnd);
        long start = Math.max(apiStart + vary(3_000), rank.deviceFree);
        long end = start + Math.max(1, gpuNs);
        rank.deviceFree = end;
        io(() -> db.kernel(start, end, rank.device, CONTEXT, STREAM, corr, rank.globalPid, shape(spec), ++rank.gridId));
        counts[Count.KERNELS.ordinal()]++;
        touch(start, end);
        return this;
    }

    /** A kernel by name with an exact GPU duration. */
    public SyntheticProfile kernel(String name, long gpuNs) {
        return kernel(KernelSpec.of(name, gpuNs), gpuNs);
    }

    /**
     * A host↔device copy. {@code async} = {@code cudaMemcpyAsync}; a pageable host buffer makes even the async
     * call block the CPU until the copy ends (what {@code nsys analyze cuda_memcpy_async} flags).
     */
    public SyntheticProfile memcpy(int copyKind, long bytes, boolean pageable, boolean async) {
        long apiStart = rank.cpu += vary(300);
        int hostKind = pageable ? MEM_PAGEABLE : MEM_PINNED;
        int src = copyKind == HTOD ? hostKind : MEM_DEVICE;
        int dst = copyKind == DTOH ? hostKind : MEM_DEVICE;
        double bytesPerNs = copyKind == DTOD ? 300.0 : pageable ? 6.0 : 12.0;
        long start = Math.max(apiStart + vary(2_000), rank.deviceFree);
        long end = start + 1_000 + (long) (bytes / bytesPerNs);
        rank.deviceFree = end;
        boolean blocks = !async || (pageable && copyKind != DTOD);
        long apiEnd = blocks ? end + vary(1_500) : apiStart + vary(4_000);
        long corr = apiCall(async ? "cudaMemcpyAsync_v3020" : "cudaMemcpy_v3020", apiStart, apiEnd);
        io(() -> db.memcpy(start, end, rank.device, CONTEXT, STREAM, corr, rank.globalPid, bytes, copyKind, src, dst));
        counts[Count.MEMCPYS.ordinal()]++;
        touch(start, end);
        return this;
    }

    /** {@code cudaMemsetAsync} on device memory. */
    public SyntheticProfile memset(long bytes) {
        long apiStart = rank.cpu += vary(300);
        long apiEnd = apiStart + vary(4_000);
        long corr = apiCall("cudaMemsetAsync_v3020", apiStart, apiEnd);
        long start = Math.max(apiStart + vary(2_000), rank.deviceFree);
        long end = start + 1_000 + bytes / 200;
        rank.deviceFree = end;
        io(() -> db.memset(start, end, rank.device, CONTEXT, STREAM, corr, rank.globalPid, 0, bytes, MEM_DEVICE));
        counts[Count.MEMSETS.ordinal()]++;
        touch(start, end);
        return this;
    }

    /** {@code cudaDeviceSynchronize}: the CPU waits until every queued GPU operation has finished. */
    public SyntheticProfile deviceSynchronize() {
        return synchronize("cudaDeviceSynchronize_v3020", 4);
    }

    /** {@code cudaStreamSynchronize} on the compute stream. */
    public SyntheticProfile streamSynchronize() {
        return synchronize("cudaStreamSynchronize_v3020", 3);
    }

    private SyntheticProfile synchronize(String api, int syncType) {
        long apiStart = rank.cpu += vary(300);
        long apiEnd = Math.max(apiStart + vary(2_000), rank.deviceFree + vary(1_000));
        long corr = apiCall(api, apiStart, apiEnd);
        long start = apiStart + 700;
        long end = Math.max(start + 100, apiEnd - 200);
        io(() -> db.synchronization(start, end, rank.device, CONTEXT, STREAM, corr, rank.globalPid, syncType));
        counts[Count.SYNCS.ordinal()]++;
        return this;
    }

    /** Any other CUDA runtime call ({@code cudaMalloc_v3020}, {@code cudaStreamCreateWithFlags_v5000}, ...) taking {@code ns}. */
    public SyntheticProfile api(String name, long ns) {
        long apiStart = rank.cpu += vary(300);
        apiCall(name, apiStart, apiStart + ns);
        return this;
    }

    private long apiCall(String name, long start, long end) {
        long corr = ++rank.correlation;
        long nameId = db.string(name);
        io(() -> db.runtime(start, end, 0, rank.current.globalTid, corr, nameId));
        rank.cpu = end;
        counts[Count.API_CALLS.ordinal()]++;
        touch(start, end);
        return corr;
    }

    // ---------------------------------------------------------------------------------------------- close

    /** Events written so far. */
    public long count(Count what) {
        return counts[what.ordinal()];
    }

    /** The underlying row writer, for tests that need rows the timeline API does not make. */
    public NsysDbWriter db() {
        return db;
    }

    /** Writes unclosed ranges (end NULL), the session tables, and moves the finished file into place. */
    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        try {
            for (Rank r : ranks) {
                for (ThreadState t : r.threads) {
                    for (NvtxRow row : t.pending) if (row.end == OPEN) row.end = -1;
                    flushClosed(t);
                }
            }
            long start = minTime == Long.MAX_VALUE ? 0 : minTime;
            long stop = maxTime == Long.MIN_VALUE ? 0 : maxTime;
            db.row("ANALYSIS_DETAILS", "globalVid", "duration", "startTime", "stopTime")
                    .values(NsysDbWriter.LOCAL_VM, stop - start, start, stop);
            db.close();
        } catch (IOException | RuntimeException e) {
            db.abort();
            throw e;
        }
    }

    // ------------------------------------------------------------------------------------------- internals

    private void flushClosed(ThreadState t) {
        if (options.endOrderedNvtx) {
            // as nsys stores push/pop ranges: each when it ends, so an enclosing range comes after what it holds
            for (java.util.Iterator<NvtxRow> it = t.pending.iterator(); it.hasNext(); ) {
                NvtxRow r = it.next();
                if (r.end == OPEN) continue;
                it.remove();
                writeNvtx(t, r);
            }
            return;
        }
        while (!t.pending.isEmpty() && t.pending.peekFirst().end != OPEN) writeNvtx(t, t.pending.pollFirst());
    }

    private void writeNvtx(ThreadState t, NvtxRow r) {
        long endTid = r.endGlobalTid != 0 ? r.endGlobalTid : (r.type == NVTX_START_END ? t.globalTid : -1);
        io(() -> db.nvtx(r.start, r.end, r.type, r.rangeId, r.text, t.globalTid, endTid, r.textId, r.domainId));
        counts[Count.NVTX_EVENTS.ordinal()]++;
        touch(r.start, Math.max(r.start, r.end));
    }

    private NsysDbWriter.KernelShape shape(KernelSpec k) {
        return shapes.computeIfAbsent(k.shortName() + "\n" + k.demangledName() + "\n" + k.registers() + "/" + k.gridX(),
                key -> db.kernelShape(k.shortName(), k.demangledName(), null, k.registers(), k.gridX(), k.gridY(),
                        k.gridZ(), k.blockX(), k.blockY(), k.blockZ(), k.staticSharedMemory(), 0));
    }

    /** {@code mean} ± 10 %, from the seeded generator. */
    long vary(long mean) {
        return Math.max(1, Math.round(mean * (0.9 + 0.2 * random.nextDouble())));
    }

    private void touch(long start, long end) {
        if (start < minTime) minTime = start;
        if (end > maxTime) maxTime = end;
    }

    private interface IoAction {
        void run() throws IOException;
    }

    private static void io(IoAction a) {
        try {
            a.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void writeStaticTables() throws IOException {
        NsysSchema s = options.schema;
        String meta = s.metaTable();
        String[][] exportMeta = s.modern() ? new String[][]{
                {"EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"}, {"EXPORT_PRODUCT_VERSION", s.productVersion()},
                {"EXPORT_PRODUCT_DATE", "2025.5"}, {"EXPORT_SCHEMA_VERSION", s.schemaVersion()},
                {"EXPORT_SCHEMA_VERSION_MAJOR", "3"}, {"EXPORT_SCHEMA_VERSION_MINOR", "24"},
                {"EXPORT_SCHEMA_VERSION_MICRO", "0"}, {"EXPORT_PLATFORM", "linux-desktop"}, {"EXPORT_ARCH", "x64"},
                {"EXPORT_TIME_UTC", "2025-01-01T00:00:00"}, {"EXPORT_HOST", options.hostname},
                {"EXPORT_PARAM_INPUT_FILE", "synthetic.nsys-rep"}, {"EXPORT_PARAM_OUTPUT_FILE", "synthetic.sqlite"},
                {"DLPROF_LINT_SYNTHETIC", "dlproflint.synth seed=" + options.seed}}
                : new String[][]{
                {"EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"}, {"EXPORT_PRODUCT_VERSION", s.productVersion()},
                {"EXPORT_PRODUCT_DATE", "2022.1"}, {"EXPORT_SCHEMA_VERSION", s.schemaVersion()},
                {"EXPORT_SCHEMA_VERSION_MAJOR", "2"}, {"EXPORT_SCHEMA_VERSION_MINOR", "9"},
                {"EXPORT_SCHEMA_VERSION_MICRO", "1"}, {"EXPORT_PLATFORM", "linux-desktop"}, {"EXPORT_ARCH", "x64"},
                {"EXPORT_TIME_UTC", "2023-01-01T00:00:00"}, {"EXPORT_HOST", options.hostname},
                {"EXPORT_INPUT_FILE", "synthetic.nsys-rep"}, {"EXPORT_OUTUPT_FILE", "synthetic.sqlite"},
                {"DLPROF_LINT_SYNTHETIC", "dlproflint.synth seed=" + options.seed}};
        for (String[] kv : exportMeta) db.row(meta, "name", "value").values(kv[0], kv[1]);
        if (s.modern()) {
            for (String[] kv : new String[][]{{"CAPTURE_EVENT_TYPE", "NvtxEvents"}, {"CAPTURE_EVENT_TYPE", "Cuda"},
                    {"PROCESS_0:COMMAND", "python3"}, {"PROCESS_0:COLLECT_NVTX_TRACE", "true"},
                    {"PROCESS_0:COLLECT_CUDA_TRACE", "true"}}) {
                db.row("META_DATA_CAPTURE", "name", "value").values(kv[0], kv[1]);
            }
        }
        db.row("TARGET_INFO_SESSION_START_TIME", "utcEpochNs", "utcTime", "localTime")
                .values(1_700_000_000_000_000_000L, "2023-11-14T22:13:20", "2023-11-14T22:13:20");
        String[][] env = {{"CpuCores", "1", "16"}, {"CpuDescription", "13", options.cpuModel},
                {"NvDriverVersion", "205", "5350000"}, {"CudaDriverVersion", "611", "12020"},
                {"OsDescription", "605", "Ubuntu 22.04.3 LTS"}, {"Hostname", "619", options.hostname}};
        for (String[] e : env) {
            db.row("TARGET_INFO_SYSTEM_ENV", "globalVid", "devStateName", "name", "nameEnum", "value")
                    .values(NsysDbWriter.LOCAL_VM, "Local (CLI)", e[0], Integer.parseInt(e[1]), e[2]);
        }
        for (int i = 0; i < options.gpus.size(); i++) {
            GpuModel g = options.gpus.get(i);
            db.row("TARGET_INFO_GPU", "vmId", "id", "name", "busLocation", "isDiscrete", "l2CacheSize", "totalMemory",
                            "memoryBandwidth", "clockRate", "smCount", "pwGpuId", "uuid", "luid", "chipName", "cuDevice",
                            "threadsPerWarp", "asyncEngines", "maxWarpsPerSm", "maxBlocksPerSm", "maxThreadsPerBlock",
                            "computeMajor", "computeMinor", "smMajor", "smMinor")
                    .values(NsysDbWriter.LOCAL_VM, i, g.displayName(), String.format("0000:%02x:00.0", i + 1), 1,
                            g.l2CacheSize(), g.totalMemory(), g.memoryBandwidth(), g.clockRate(), g.smCount(), i,
                            String.format("00000000-0000-4000-8000-%012d", i), 0, g.chip(), i, 32, 3, 64, 32, 1024,
                            g.computeMajor(), g.computeMinor(), g.computeMajor(), g.computeMinor());
        }
        for (Rank r : ranks) {
            db.row("PROCESSES", "globalPid", "pid", "name").values(r.globalPid, r.pid, "python3");
            db.row("ThreadNames", "nameId", "priority", "globalTid").values(db.string("python3"), 20, r.threads.get(0).globalTid);
            if (s.modern()) {
                db.row("TARGET_INFO_CUDA_CONTEXT_INFO", "nullStreamId", "hwId", "vmId", "processId", "deviceId",
                        "contextId", "parentContextId", "isGreenContext").values(STREAM, 0, 1, r.pid, r.device, CONTEXT, null, 0);
                db.row("TARGET_INFO_CUDA_DEVICE", "gpuId", "cudaId", "pid").values(r.device, r.device, r.pid);
            } else {
                db.row("TARGET_INFO_CUDA_NULL_STREAM", "streamId", "hwId", "vmId", "processId", "deviceId", "contextId")
                        .values(STREAM, 0, 1, r.pid, r.device, CONTEXT);
            }
            db.row("TARGET_INFO_CUDA_STREAM", "streamId", "hwId", "vmId", "processId", "contextId", "priority", "flag")
                    .values(STREAM, 0, 1, r.pid, CONTEXT, 0, 3);
        }
    }

    /** One profiled process: drives GPU {@code device}; its own CPU clock and correlation ids. */
    private final class Rank {
        final int pid;
        final int device;
        final long globalPid;
        final List<ThreadState> threads = new ArrayList<>();
        ThreadState current;
        long cpu;
        long deviceFree;
        long correlation;
        long gridId;

        Rank(int r) {
            this.pid = 4242 + 100 * r;
            this.device = r;
            this.globalPid = NsysDbWriter.globalPid(pid);
            this.cpu = options.startNs + 1_000L * r;
            this.correlation = 100; // CUPTI's first ids go to initialisation calls
            threads.add(new ThreadState("python3", pid, pid));
            current = threads.get(0);
        }
    }

    private static final class ThreadState {
        final String name;
        final long globalTid;
        final ArrayDeque<NvtxRow> stack = new ArrayDeque<>();
        final ArrayDeque<NvtxRow> pending = new ArrayDeque<>();

        ThreadState(String name, int pid, int tid) {
            this.name = name;
            this.globalTid = NsysDbWriter.globalTid(pid, tid);
        }
    }

    private static final class NvtxRow {
        final long start;
        final int type;
        final String text;
        final long textId;
        final int domainId;
        long end = OPEN;
        long rangeId = -1;
        long endGlobalTid;

        NvtxRow(long start, int type, String text, long textId, int domainId) {
            this.start = start;
            this.type = type;
            this.text = text;
            this.textId = textId;
            this.domainId = domainId;
        }
    }

    /** Configuration; {@link #open(Path)} starts writing. */
    public static final class Options {
        private NsysSchema schema = NsysSchema.NSYS_2022_1;
        private final List<GpuModel> gpus = new ArrayList<>(List.of(GpuModel.RTX_2070_SUPER));
        private int processes = 1;
        private long seed = 1;
        private long startNs = 100_000_000L;
        private String cpuModel = "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz";
        private String hostname = "synthetic-host";
        private boolean endOrderedNvtx;

        /**
         * Store every NVTX range when it ends (what nsys does with push/pop ranges: an enclosing range is stored
         * after the ranges it holds) instead of in start order per thread.
         */
        public Options endOrderedNvtx(boolean v) { endOrderedNvtx = v; return this; }
        public Options schema(NsysSchema v) { schema = v; return this; }
        public Options seed(long v) { seed = v; return this; }
        public Options cpuModel(String v) { cpuModel = v; return this; }
        public Options hostname(String v) { hostname = v; return this; }
        public Options startNs(long v) { startNs = v; return this; }

        /** {@code count} GPUs of one model, each driven by its own process (rank). */
        public Options gpus(GpuModel model, int count) {
            return gpus(model, count, count);
        }

        /** {@code installed} GPUs in TARGET_INFO_GPU, of which the first {@code used} get a process. */
        public Options gpus(GpuModel model, int installed, int used) {
            if (installed < 1 || used < 0 || used > installed) throw new IllegalArgumentException("bad GPU counts");
            gpus.clear();
            for (int i = 0; i < installed; i++) gpus.add(model);
            processes = Math.max(1, used);
            return this;
        }

        public NsysSchema schema() { return schema; }
        public long seed() { return seed; }

        public SyntheticProfile open(Path file) throws IOException {
            return new SyntheticProfile(this, file);
        }
    }
}
