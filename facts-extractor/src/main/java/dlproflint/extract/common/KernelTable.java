package dlproflint.extract.common;

import dlproflint.facts.KernelFact;
import dlproflint.facts.Precision;
import dlproflint.facts.StatAccumulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Kernels aggregated per (owning op, kernel name, device), DLProf's kernel report granularity. */
public final class KernelTable {
    private final Map<String, Row> rows = new LinkedHashMap<>();

    private static final class Row {
        int index;
        String opKey;
        String name;
        String longName;
        int device;
        boolean tc;
        Precision precision;
        String grid;
        String block;
        final StatAccumulator gpu = new StatAccumulator();
        final StatAccumulator api = new StatAccumulator();
    }

    /** Adds one launch; returns its row's index, the position of its fact in {@link #facts}. */
    public int add(String opKey, String name, String longName, int device, boolean tc, Precision precision, long gpuNs,
                   long apiNs, boolean hasApi, String grid, String block) {
        String key = opKey + '\u0001' + name + '\u0001' + device;
        Row r = rows.get(key);
        if (r == null) {
            r = new Row();
            r.index = rows.size();
            r.opKey = opKey;
            r.name = name;
            r.longName = longName;
            r.device = device;
            r.tc = tc;
            r.precision = precision;
            r.grid = grid;
            r.block = block;
            rows.put(key, r);
        }
        r.gpu.add(gpuNs);
        if (hasApi) r.api.add(apiNs);
        return r.index;
    }

    public int size() {
        return rows.size();
    }

    public List<KernelFact> facts(Map<String, String> opIds) {
        List<KernelFact> out = new ArrayList<>(rows.size());
        for (Row r : rows.values()) {
            out.add(new KernelFact(r.name, r.longName, opIds.getOrDefault(r.opKey, r.opKey), r.device,
                    r.gpu.toStat(), r.api.toStat(), r.tc, r.grid, r.block, r.precision));
        }
        return out;
    }
}
