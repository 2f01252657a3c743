package dlproflint.extract.common;

import dlproflint.facts.KernelFact;
import dlproflint.extract.kernels.KernelClass;
import dlproflint.facts.StatAccumulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kernels aggregated per (owning op, kernel name, device), DLProf's kernel report granularity. Launches may fall into
 * {@link Segments} (iterations the steady window may still leave out): each row keeps a sum per segment, and the facts
 * fold the kept ones, so a row's index ({@link Row#index()}, what {@link IterationKernelTable} knows it by) never
 * changes.
 */
public final class KernelTable {
    private final Map<Key, Row> rows = new LinkedHashMap<>();
    private final int segments;

    public KernelTable() {
        this(1);
    }

    public KernelTable(int segments) {
        this.segments = segments;
    }

    /**
     * Equality and hash written out: a record's generated ones go through method handles, which the quick compiler
     * does not inline (every kernel launch looks its row up: a tenth of the correlation pass's thread). Not a record:
     * {@link #find} looks up with one key it sets each time ({@link #probe}), as a key object a launch was a tenth of
     * what the correlation pass allocated; the map's own keys are never changed.
     */
    private static final class Key {
        private String opKey;
        private String name;
        private int device;

        Key(String opKey, String name, int device) {
            set(opKey, name, device);
        }

        Key set(String opKey, String name, int device) {
            this.opKey = opKey;
            this.name = name;
            this.device = device;
            return this;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && device == k.device && opKey.equals(k.opKey) && name.equals(k.name);
        }

        @Override
        public int hashCode() {
            return (31 * opKey.hashCode() + name.hashCode()) * 31 + device;
        }
    }

    /** the key {@link #find} looks up with (a table is filled by one thread) */
    private final Key probe = new Key("", "", 0);

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
        private final StatAccumulator[] gpu;
        private final StatAccumulator[] api;

        private Row(int index, String opKey, String name, String longName, int device, KernelClass kc, String grid,
                    String block, int segments) {
            this.gpu = new StatAccumulator[segments];
            this.api = new StatAccumulator[segments];
            for (int i = 0; i < segments; i++) {
                gpu[i] = new StatAccumulator();
                api[i] = new StatAccumulator();
            }
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
            add(gpuNs, apiNs, hasApi, 0);
        }

        /** A launch of segment {@code segment}. */
        public void add(long gpuNs, long apiNs, boolean hasApi, int segment) {
            gpu[segment].add(gpuNs);
            if (hasApi) api[segment].add(apiNs);
        }
    }

    /**
     * The row of (op, kernel, device), or null before its first launch: the caller then reads the details
     * (long name, grid, block) once and {@link #create}s it, instead of building them for every launch.
     */
    public Row find(String opKey, String name, int device) {
        return rows.get(probe.set(opKey, name, device));
    }

    public Row create(String opKey, String name, String longName, int device, KernelClass kc, String grid, String block) {
        Row r = new Row(rows.size(), opKey, name, longName, device, kc, grid, block, segments);
        rows.put(new Key(opKey, name, device), r);
        return r;
    }

    public int size() {
        return rows.size();
    }

    /** Every row as a fact (null for a row without a launch in a kept segment), by index. */
    public List<KernelFact> facts(Map<String, String> opIds, boolean[] kept) {
        List<KernelFact> out = new ArrayList<>(rows.size());
        for (Row r : rows.values()) {
            StatAccumulator gpu = new StatAccumulator();
            StatAccumulator api = new StatAccumulator();
            for (int i = 0; i < segments; i++) {
                if (!kept[i]) continue;
                gpu.add(r.gpu[i].toStat());
                api.add(r.api[i].toStat());
            }
            out.add(gpu.count() == 0 ? null : new KernelFact(r.name, r.longName, opIds.getOrDefault(r.opKey, r.opKey),
                    r.device, gpu.toStat(), api.toStat(), r.kc.tensorCores(), r.grid, r.block, r.kc.precision(),
                    r.kc.family(), r.kc.kind()));
        }
        return out;
    }
}
