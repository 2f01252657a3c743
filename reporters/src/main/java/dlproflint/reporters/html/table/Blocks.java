package dlproflint.reporters.html.table;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The data blocks of one page, by id: what reference columns and finding links resolve against. */
public final class Blocks {
    private final Map<String, DataBlock> byId = new LinkedHashMap<>();

    public DataBlock add(DataBlock b) {
        if (byId.putIfAbsent(b.id(), b) != null) throw new IllegalArgumentException("duplicate block " + b.id());
        return b;
    }

    public DataBlock get(String id) {
        DataBlock b = byId.get(id);
        if (b == null) throw new IllegalArgumentException("no block " + id);
        return b;
    }

    public boolean has(String id) {
        return byId.containsKey(id);
    }

    /** Every block, in the order added, for the page's data section. */
    public List<DataBlock> all() {
        return new ArrayList<>(byId.values());
    }
}
