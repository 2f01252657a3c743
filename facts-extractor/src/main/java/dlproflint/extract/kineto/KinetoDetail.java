package dlproflint.extract.kineto;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.detail.MemoryCurve;
import dlproflint.detail.ModuleTime;
import dlproflint.detail.ProfileDetail;
import dlproflint.detail.TimelineWindow;
import dlproflint.extract.common.ApiNames;
import dlproflint.extract.common.DetailWindow;
import dlproflint.extract.common.SpanCollector;
import dlproflint.extract.common.SyncPoints;
import dlproflint.extract.kernels.KernelCatalogue;
import dlproflint.extract.kernels.KernelClass;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.ProfileFacts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The HTML views' pass over a Kineto trace (a second read, made only for an HTML report): the spans of the
 * {@link DetailWindow} per GPU stream and CPU thread, the {@code [memory]} curve of every device with the op running
 * at its peak, and time per {@code nn.Module} from the {@code with_modules} ranges ({@code python_function} events
 * named {@code nn.Module: Name_N}). Memory is bounded: the window keeps its earliest spans ({@link SpanCollector}),
 * the curves and the op and module intervals are primitive columns.
 */
final class KinetoDetail implements TraceHandler {
    private static final String MODULE_PREFIX = "nn.Module: ";

    private final SpanCollector spans;
    private final KernelCatalogue catalogue = KernelCatalogue.builtin();
    private final Map<String, String> kernelCategory = new HashMap<>();
    private final Map<String, Integer> threads = new HashMap<>();
    private final List<String> threadNames = new ArrayList<>();
    private final Map<String, Integer> names = new HashMap<>();
    private final List<String> nameList = new ArrayList<>();
    /** every CPU op: when, on which thread, which name (for the op running at a memory peak) */
    private final LongColumn opStart = new LongColumn();
    private final LongColumn opEnd = new LongColumn();
    private final IntColumn opThread = new IntColumn();
    private final IntColumn opName = new IntColumn();
    /** nn.Module ranges */
    private final LongColumn modStart = new LongColumn();
    private final LongColumn modEnd = new LongColumn();
    private final IntColumn modThread = new IntColumn();
    private final IntColumn modName = new IntColumn();
    /** [memory] events per device: time, allocated, reserved, thread */
    private final Map<Integer, long[][]> memory = new TreeMap<>();
    private final Map<Integer, Integer> memoryCount = new HashMap<>();
    private final Map<Integer, Integer> memoryThreadColumn = new HashMap<>();

    KinetoDetail(DetailWindow window) {
        this.spans = new SpanCollector(window);
    }

    private int index(Map<String, Integer> map, List<String> list, String s) {
        Integer i = map.get(s);
        if (i != null) return i;
        map.put(s, list.size());
        list.add(s);
        return list.size() - 1;
    }

    @Override
    public void event(TraceEvent e) {
        if (!"X".equals(e.ph) && !"i".equals(e.ph) && !"I".equals(e.ph) || e.tsNs == TraceEvent.NONE) return;
        long start = e.tsNs;
        long end = e.endNs();
        String name = e.name == null ? "" : e.name;
        String thread = e.tidText == null ? "?" : e.tidText;
        switch (e.kind()) {
            case "kernel" -> spans.add(spans.gpuLane(device(e), stream(e)), start, end, TimelineWindow.Kind.KERNEL, name, category(name));
            case "gpu_memcpy" -> spans.add(spans.gpuLane(device(e), stream(e)), start, end, TimelineWindow.Kind.MEMCPY, name, null);
            case "gpu_memset" -> spans.add(spans.gpuLane(device(e), stream(e)), start, end, TimelineWindow.Kind.MEMSET, name, null);
            case "cuda_runtime", "cuda_driver" -> {
                String api = ApiNames.normalize(name);
                String c = ApiNames.category(api);
                if (c.equals("sync") || ApiNames.synchronizing(api)) {
                    spans.add(spans.threadLane(thread), start, end, TimelineWindow.Kind.SYNC, api, null);
                } else if (c.equals("launch") || c.equals("memcpy") || c.equals("memset")) {
                    spans.add(spans.threadLane(thread), start, end, TimelineWindow.Kind.LAUNCH, api, null);
                }
            }
            case "cpu_op", "user_annotation" -> {
                if (name.startsWith("ProfilerStep#")) return; // the steps are drawn from the facts
                if ("cpu_op".equals(e.kind())) {
                    opStart.add(start);
                    opEnd.add(end);
                    opThread.add(index(threads, threadNames, thread));
                    opName.add(index(names, nameList, name));
                }
                boolean blocks = SyncPoints.blockingOp(name);
                spans.add(spans.threadLane(thread), start, end, blocks ? TimelineWindow.Kind.SYNC : TimelineWindow.Kind.OP, name, null);
            }
            case "python_function" -> {
                if (!name.startsWith(MODULE_PREFIX)) return;
                modStart.add(start);
                modEnd.add(end);
                modThread.add(index(threads, threadNames, thread));
                modName.add(index(names, nameList, name.substring(MODULE_PREFIX.length())));
            }
            case "cpu_instant_event" -> memory(e, thread);
            default -> { }
        }
    }

    private void memory(TraceEvent e, String thread) {
        if (!"[memory]".equals(e.name) || e.deviceType != 1 || e.deviceId == TraceEvent.NONE || e.totalAllocated == TraceEvent.NONE) {
            return;
        }
        int dev = (int) e.deviceId;
        long[][] cols = memory.computeIfAbsent(dev, d -> new long[4][1024]);
        int n = memoryCount.getOrDefault(dev, 0);
        if (n == cols[0].length) {
            for (int c = 0; c < 4; c++) cols[c] = java.util.Arrays.copyOf(cols[c], n * 2);
        }
        cols[0][n] = e.tsNs;
        cols[1][n] = e.totalAllocated;
        cols[2][n] = e.totalReserved == TraceEvent.NONE ? 0 : e.totalReserved;
        cols[3][n] = index(threads, threadNames, thread);
        memoryCount.put(dev, n + 1);
    }

    private String category(String name) {
        return kernelCategory.computeIfAbsent(name, n -> {
            KernelClass k = catalogue.classify(n);
            if (k.tensorCores()) return "tensor-core";
            return k.family() == null ? "other" : k.family();
        });
    }

    private static int device(TraceEvent e) {
        if (e.device != TraceEvent.NONE) return (int) e.device;
        try {
            return e.pidText == null ? 0 : Integer.parseInt(e.pidText.trim());
        } catch (NumberFormatException ex) {
            return 0;
        }
    }

    private static long stream(TraceEvent e) {
        if (e.stream != TraceEvent.NONE) return e.stream;
        String t = e.tidText == null ? "" : e.tidText.replaceAll("\\D", "");
        try {
            return t.isEmpty() || t.length() > 12 ? 0 : Long.parseLong(t);
        } catch (NumberFormatException ex) {
            return 0;
        }
    }

    ProfileDetail build(ProfileFacts facts, boolean legacy) {
        MemoryCurve curve = memoryCurve(facts);
        List<ModuleTime> modules = modules();
        String memoryNote = curve != null ? null : legacy
                ? "The autograd profiler's legacy trace records no memory events."
                : "The trace has no [memory] events: record with torch.profiler.profile(profile_memory=True) "
                + "(dlprof-lint run records them by default).";
        String modulesNote = !modules.isEmpty() ? null
                : "The trace has no nn.Module ranges: record with torch.profiler.profile(with_modules=True) "
                + "(PyTorch 1.13+ with Kineto; dlprof-lint run records them by default).";
        return new ProfileDetail(spans.build(), curve, modules, memoryNote, modulesNote);
    }

    private MemoryCurve memoryCurve(ProfileFacts facts) {
        if (memory.isEmpty()) return null;
        Map<Integer, Long> capacity = new HashMap<>();
        for (GpuInfo g : facts.gpus()) capacity.put(g.deviceId(), g.totalMemoryBytes());
        List<MemoryCurve.Device> devices = new ArrayList<>();
        for (Map.Entry<Integer, long[][]> m : memory.entrySet()) {
            int n = memoryCount.get(m.getKey());
            long[][] c = m.getValue();
            int[] order = dlproflint.extract.common.IndexSort.sorted(n, (x, y) -> Long.compare(c[0][x], c[0][y]));
            long[] t = new long[n];
            long[] a = new long[n];
            long[] r = new long[n];
            int peak = 0;
            long peakReserved = 0;
            for (int i = 0; i < n; i++) {
                t[i] = c[0][order[i]];
                a[i] = c[1][order[i]];
                r[i] = c[2][order[i]];
                if (a[i] > a[peak]) peak = i;
                peakReserved = Math.max(peakReserved, r[i]);
            }
            long[][] reduced = DetailWindow.reduce(t, a, r, n);
            String op = opAt(t[peak], (int) c[3][order[peak]]);
            devices.add(new MemoryCurve.Device(m.getKey(), reduced[0], reduced[1], reduced[2], t[peak], a[peak], peakReserved, op,
                    capacity.getOrDefault(m.getKey(), 0L), n));
        }
        return new MemoryCurve("PyTorch's caching allocator ([memory] events): allocated to tensors, and reserved from the driver",
                devices);
    }

    /** The innermost CPU op running on the thread at {@code ts}, or null. */
    private String opAt(long ts, int thread) {
        int best = -1;
        for (int i = 0; i < opStart.size(); i++) {
            if (opThread.get(i) != thread || opStart.get(i) > ts || opEnd.get(i) < ts) continue;
            if (best < 0 || opStart.get(i) >= opStart.get(best)) best = i;
        }
        return best < 0 ? null : nameList.get(opName.get(best));
    }

    /** Time per module path: each module range nested in the ranges around it on its thread. */
    private List<ModuleTime> modules() {
        int n = modStart.size();
        if (n == 0) return List.of();
        int[] order = dlproflint.extract.common.IndexSort.sorted(n, (x, y) -> {
            int c = Integer.compare(modThread.get(x), modThread.get(y));
            if (c != 0) return c;
            c = Long.compare(modStart.get(x), modStart.get(y));
            return c != 0 ? c : Long.compare(modEnd.get(y), modEnd.get(x));
        });
        record Open(int index, String path, int depth) {
        }
        Map<String, long[]> byPath = new TreeMap<>(); // path -> calls, total, children, depth
        java.util.ArrayDeque<Open> stack = new java.util.ArrayDeque<>();
        int thread = -1;
        for (int i : order) {
            if (modThread.get(i) != thread) {
                stack.clear();
                thread = modThread.get(i);
            }
            while (!stack.isEmpty() && modEnd.get(stack.peek().index()) <= modStart.get(i)) stack.pop();
            String name = nameList.get(modName.get(i));
            Open parent = stack.peek();
            String path = parent == null ? name : parent.path() + "/" + name;
            int depth = parent == null ? 0 : parent.depth() + 1;
            long dur = modEnd.get(i) - modStart.get(i);
            long[] agg = byPath.computeIfAbsent(path, p -> new long[4]);
            agg[0]++;
            agg[1] += dur;
            agg[3] = depth;
            if (parent != null) byPath.get(parent.path())[2] += dur;
            stack.push(new Open(i, path, depth));
        }
        List<ModuleTime> out = new ArrayList<>();
        for (Map.Entry<String, long[]> e : byPath.entrySet()) {
            long[] a = e.getValue();
            String path = e.getKey();
            out.add(new ModuleTime(path, path.substring(path.lastIndexOf('/') + 1), (int) a[3], a[0], a[1], Math.max(0, a[1] - a[2])));
        }
        out.sort(Comparator.comparingLong(ModuleTime::totalNs).reversed().thenComparing(ModuleTime::path));
        return out.size() > ModuleTime.MAX ? List.copyOf(out.subList(0, ModuleTime.MAX)) : out;
    }

    @Override
    public void deviceProperties(JsonNode devices) {
    }

    @Override
    public void distributedInfo(JsonNode info) {
    }

    @Override
    public void baseTimeNanoseconds(long ns) {
    }

    @Override
    public void topLevel(String key, String value) {
    }

    @Override
    public void warning(String code, String message) {
    }
}
