package dlproflint.reporters.html.table;

import java.util.ArrayList;
import java.util.List;

/**
 * Rows of raw values embedded once in the page as a {@code <script type="application/json">} block
 * ({@code {"f":[field names],"r":[[row values]]}}), shared by every {@link DataTable} that shows them and
 * by the columns of other tables that refer to its rows by index. A derived block carries only its recipe
 * ({@code {"f":[...],"d":{...}}}, see {@link Derivation}); the browser computes the same rows.
 *
 * @param id      element id of the block, unique in the page
 * @param fields  the name of each position of a row
 * @param rows    the rows, in the order tables show them by default; a row's index is its identity
 * @param derived how the rows follow from another block, or null when they are embedded
 */
public record DataBlock(String id, List<String> fields, List<Object[]> rows, Derivation derived) {
    public DataBlock {
        fields = List.copyOf(fields);
        rows = List.copyOf(rows);
    }

    /** A block computed from {@code source} by {@code d}. */
    public static DataBlock derive(String id, DataBlock source, Derivation d) {
        if (!d.from().equals(source.id())) throw new IllegalArgumentException(d.from() + " is not " + source.id());
        return new DataBlock(id, d.fields(), d.apply(source), d);
    }

    /** Position of {@code field} in a row. */
    public int position(String field) {
        int i = fields.indexOf(field);
        if (i < 0) throw new IllegalArgumentException("block " + id + " has no field " + field + " " + fields);
        return i;
    }

    public Object value(int row, String field) {
        return rows.get(row)[position(field)];
    }

    public int size() {
        return rows.size();
    }

    /** The block as script-safe JSON. */
    public String json() {
        StringBuilder b = new StringBuilder(64 + rows.size() * 48);
        ScriptJson w = new ScriptJson(b);
        w.raw('{').string("f").raw(':').raw('[');
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) w.raw(',');
            w.string(fields.get(i));
        }
        if (derived != null) {
            w.raw(']').raw(',').string("d").raw(':');
            derived.json(w);
            return b.append('}').toString();
        }
        w.raw(']').raw(',').string("r").raw(':').raw('[');
        for (int r = 0; r < rows.size(); r++) {
            if (r > 0) w.raw(',');
            Object[] row = rows.get(r);
            w.raw('[');
            for (int i = 0; i < row.length; i++) {
                if (i > 0) w.raw(',');
                w.value(row[i]);
            }
            w.raw(']');
        }
        return b.append("]}").toString();
    }

    /** Collects rows for a block with the given fields. */
    public static final class Builder {
        private final String id;
        private final List<String> fields;
        private final List<Object[]> rows = new ArrayList<>();

        public Builder(String id, String... fields) {
            this.id = id;
            this.fields = List.of(fields);
        }

        public Builder row(Object... values) {
            if (values.length != fields.size()) {
                throw new IllegalArgumentException("block " + id + ": " + values.length + " values for " + fields);
            }
            rows.add(values);
            return this;
        }

        public int size() {
            return rows.size();
        }

        public DataBlock build() {
            return new DataBlock(id, fields, rows, null);
        }
    }
}
