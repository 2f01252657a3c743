package dlproflint.reporters.html.viewer;

import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.Iteration;
import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The rows of a profile's tables in the order the report embeds them (ops and kernels by GPU time, iterations
 * and GPUs by index), capped, with lookups from the identities findings use (op id or name, kernel name,
 * device id, iteration index) to row indexes.
 */
final class RowIndex {
    /** Most ops embedded (the ones with the most GPU time); about 2.5 MB of data. */
    static final int MAX_OPS = 10_000;
    /** Most kernel rows embedded (the ones with the most GPU time). */
    static final int MAX_KERNELS = 10_000;
    /** Most iterations embedded (the first ones). */
    static final int MAX_ITERATIONS = 20_000;

    final List<OpFact> ops;
    final List<KernelFact> kernels;
    final List<Iteration> iterations;
    final List<Integer> devices;
    final Map<Integer, GpuInfo> gpuInfo = new HashMap<>();
    final Map<Integer, GpuUsage> gpuUsage = new HashMap<>();
    private final Map<String, Integer> opById = new HashMap<>();
    private final Map<String, Integer> opByName = new HashMap<>();
    private final Map<String, List<Integer>> kernelsByName = new HashMap<>();
    private final Map<String, Integer> kernelByKey = new HashMap<>();
    private final Map<Integer, Integer> iterationByIndex = new HashMap<>();
    final int totalOps;
    final int totalKernels;
    final int totalIterations;

    RowIndex(ProfileFacts f) {
        this(f, MAX_OPS, MAX_KERNELS, MAX_ITERATIONS);
    }

    /** With smaller caps, when the profile's data would not fit the page's budget. */
    RowIndex(ProfileFacts f, int maxOps, int maxKernels, int maxIterations) {
        totalOps = f.ops().size();
        totalKernels = f.kernels().size();
        totalIterations = f.iterations().size();
        ops = f.ops().stream().sorted(Viewer.OPS_BY_GPU_TIME).limit(maxOps).toList();
        for (int i = 0; i < ops.size(); i++) {
            opById.putIfAbsent(ops.get(i).id(), i);
            opByName.putIfAbsent(ops.get(i).name(), i);
        }
        kernels = f.kernels().stream()
                .sorted(Comparator.comparingLong((KernelFact k) -> k.gpuTime().total()).reversed()
                        .thenComparing(k -> String.valueOf(k.name())).thenComparing(k -> String.valueOf(k.opId()))
                        .thenComparingInt(KernelFact::deviceId))
                .limit(maxKernels).toList();
        for (int i = 0; i < kernels.size(); i++) {
            KernelFact k = kernels.get(i);
            kernelsByName.computeIfAbsent(k.name(), x -> new ArrayList<>()).add(i);
            kernelByKey.putIfAbsent(kernelKey(k.opId(), k.name(), k.deviceId()), i);
        }
        iterations = f.iterations().stream().limit(maxIterations).toList();
        for (int i = 0; i < iterations.size(); i++) iterationByIndex.put(iterations.get(i).index(), i);
        TreeSet<Integer> ids = new TreeSet<>();
        for (GpuInfo g : f.gpus()) {
            gpuInfo.put(g.deviceId(), g);
            ids.add(g.deviceId());
        }
        for (GpuUsage u : f.gpuUsage()) {
            gpuUsage.put(u.deviceId(), u);
            ids.add(u.deviceId());
        }
        devices = List.copyOf(ids);
    }

    static String kernelKey(String opId, String name, int device) {
        return opId + '\u0001' + name + '\u0001' + device;
    }

    /** Row of the op with this id, or else this name; null when not embedded. */
    Integer op(String idOrName) {
        Integer i = opById.get(idOrName);
        return i != null ? i : opByName.get(idOrName);
    }

    List<Integer> kernelsNamed(String name) {
        return kernelsByName.getOrDefault(name, List.of());
    }

    Integer kernel(String opId, String name, int device) {
        return kernelByKey.get(kernelKey(opId, name, device));
    }

    Integer iteration(int index) {
        return iterationByIndex.get(index);
    }

    Integer device(int id) {
        int i = devices.indexOf(id);
        return i < 0 ? null : i;
    }

    /** GPUs that ran work (at least one, so averages over GPUs never divide by zero). */
    int usedGpus() {
        return (int) Math.max(1, gpuUsage.values().stream().filter(GpuUsage::used).count());
    }
}
