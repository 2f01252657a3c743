package dlproflint.extract.nsys;

import dlproflint.extract.common.ApiNames;
import dlproflint.extract.common.MemoryKinds;
import dlproflint.extract.common.OpTable;
import dlproflint.facts.ApiStat;
import dlproflint.facts.MemcpyStat;
import dlproflint.facts.MemsetStat;
import dlproflint.facts.StatAccumulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the correlation pass sums over aggregated iterations: ops, CUDA API calls, copies and memsets, and DLProf's
 * tensor-core utilisation parts. One per {@link dlproflint.extract.common.Segments segment}: the segments of the
 * iterations the steady window keeps are folded together ({@link #absorb}) once it is decided.
 */
final class Aggregates {
    final OpTable ops = new OpTable();
    final Map<String, StatAccumulator> api = new TreeMap<>();
    private final Map<String, MemAgg> memcpy = new LinkedHashMap<>();
    private final Map<String, MemAgg> memset = new LinkedHashMap<>();
    /**
     * DLProf's tensor-core utilisation parts: kernel time of tensor-core eligible work and the tensor-core
     * kernel time within it. A tensor-core kernel is eligible work whatever its op's name says (it proves
     * the op could use tensor cores; TensorRT layers, custom ops), so the share is at most 100 % by construction.
     */
    long eligibleKernelNs;
    long tcKernelNs;

    /** One copy or memset group (API, copy kind, memory kinds): DLProf's "Memory" kernel rows. */
    private static final class MemAgg {
        String api;
        String copyKind;
        String src;
        String dst;
        long count;
        long bytes;
        long small;
        final StatAccumulator gpu = new StatAccumulator();

        void absorb(MemAgg o) {
            if (api == null) {
                api = o.api;
                copyKind = o.copyKind;
                src = o.src;
                dst = o.dst;
            }
            count += o.count;
            bytes += o.bytes;
            small += o.small;
            gpu.add(o.gpu.toStat());
        }
    }

    void apiCall(String name, long ns) {
        // calls of one name come in runs (the correlation pass hands the same string): one tree lookup a run
        if (name != lastApi) {
            lastApiStat = api.computeIfAbsent(name, k -> new StatAccumulator());
            lastApi = name;
        }
        lastApiStat.add(ns);
    }

    private String lastApi;
    private StatAccumulator lastApiStat;

    void memcpy(String apiName, int copyKind, int srcKind, int dstKind, long bytes, long ns) {
        String ck = MemoryKinds.copyKind(copyKind);
        String src = MemoryKinds.memKind(srcKind);
        String dst = MemoryKinds.memKind(dstKind);
        MemAgg m = memcpy.computeIfAbsent(apiName + '|' + ck + '|' + src + '|' + dst, k -> new MemAgg());
        m.api = apiName;
        m.copyKind = ck;
        m.src = src;
        m.dst = dst;
        m.count++;
        m.bytes += bytes;
        if (MemoryKinds.hostToDevice(ck) && bytes <= MemoryKinds.SMALL_HTOD_BYTES) m.small++;
        m.gpu.add(ns);
    }

    void memset(String apiName, int memKind, long bytes, long ns) {
        String mk = MemoryKinds.memKind(memKind);
        MemAgg m = memset.computeIfAbsent(apiName + '|' + mk, k -> new MemAgg());
        m.api = apiName;
        m.copyKind = mk;
        m.count++;
        m.bytes += bytes;
        m.gpu.add(ns);
    }

    /** Adds another segment's sums to these. */
    void absorb(Aggregates o) {
        ops.absorb(o.ops);
        o.api.forEach((k, v) -> api.computeIfAbsent(k, x -> new StatAccumulator()).add(v.toStat()));
        o.memcpy.forEach((k, v) -> memcpy.computeIfAbsent(k, x -> new MemAgg()).absorb(v));
        o.memset.forEach((k, v) -> memset.computeIfAbsent(k, x -> new MemAgg()).absorb(v));
        eligibleKernelNs += o.eligibleKernelNs;
        tcKernelNs += o.tcKernelNs;
    }

    List<ApiStat> apiStats() {
        List<ApiStat> out = new ArrayList<>();
        for (Map.Entry<String, StatAccumulator> e : api.entrySet()) {
            out.add(new ApiStat(e.getKey(), ApiNames.category(e.getKey()), e.getValue().toStat()));
        }
        return out;
    }

    List<MemcpyStat> memcpyStats() {
        List<MemcpyStat> out = new ArrayList<>();
        for (MemAgg m : memcpy.values()) {
            out.add(new MemcpyStat(m.api, m.copyKind, m.src, m.dst, m.count, m.bytes, m.gpu.toStat(), m.small));
        }
        return out;
    }

    List<MemsetStat> memsetStats() {
        List<MemsetStat> out = new ArrayList<>();
        for (MemAgg m : memset.values()) out.add(new MemsetStat(m.api, m.copyKind, m.count, m.bytes, m.gpu.toStat()));
        return out;
    }
}
