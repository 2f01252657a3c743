package dlproflint.extract.common;

import dlproflint.facts.KernelFact;
import dlproflint.extract.kernels.KernelClass;
import dlproflint.facts.StatAccumulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Kernels aggregated per (owning op, kernel name, device), DLProf's kernel report granularity. */
public final class KernelTable {
    private final Map<Key, Row> rows = new LinkedHashMap<>();

    private record Key(String opKey, String name, int device) {
    }

    /** One (op, kernel, device): its first launch's details and every launch's times. */
    public static final class Row {
        private final int index;
        private final String opKey;
        private final String name;
        private final String longName;
        private final int device;
        /** what the kernel catalogue says about the name */
        private final KernelClass kc;
        private final String grid;
        private final String block;
        private final StatAccumulator gpu = new StatAccumulator();
        private final StatAccumulator api = new StatAccumulator();

        private Row(int index, String opKey, String name, String longName, int device, KernelClass kc, String grid,
                    String block) {
            this.index = index;
            this.opKey = opKey;
            this.name = name;
            this.longName = longName;
            this.device = device;
            this.kc = kc;
            this.grid = grid;
            this.block = block;
        }

        /** The position of its fact in {@link #facts}. */
        public int index() {
            return index;
        }

        public void add(long gpuNs, long apiNs, boolean hasApi) {
            gpu.add(gpuNs);
            if (hasApi) api.add(apiNs);
        }
    }

    /**
     * The row of (op, kernel, device), or null before its first launch: the caller then reads the details
     * (long name, grid, block) once and {@link #create}s it, instead of building them for every launch.
     */
    public Row find(String opKey, String name, int device) {
        return rows.get(new Key(opKey, name, device));
    }

    public Row create(String opKey, String name, String longName, int device, KernelClass kc, String grid, String block) {
        Row r = new Row(rows.size(), opKey, name, longName, device, kc, grid, block);
        rows.put(new Key(opKey, name, device), r);
        return r;
    }

    public int size() {
        return rows.size();
    }

    public List<KernelFact> facts(Map<String, String> opIds) {
        List<KernelFact> out = new ArrayList<>(rows.size());
        for (Row r : rows.values()) {
            out.add(new KernelFact(r.name, r.longName, opIds.getOrDefault(r.opKey, r.opKey), r.device,
                    r.gpu.toStat(), r.api.toStat(), r.kc.tensorCores(), r.grid, r.block, r.kc.precision(), r.kc.family(),
                    r.kc.kind()));
        }
        return out;
    }
}
