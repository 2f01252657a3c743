package dlproflint.reporters.html.table;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A block computed from another instead of embedded: the source rows grouped by some fields, with sums and
 * minimums, in a given order. The page carries only this recipe and the browser computes the rows (see
 * {@code derive} in {@code report.js}, which follows the same steps), so the data is not embedded twice; the
 * server computes them too, for the first page it renders. Groups appear in the order of their first source
 * row, then are stably sorted ascending by {@code order}.
 *
 * @param from       source block
 * @param by         grouping fields (copied to the output)
 * @param aggregates output field, {@code sum} or {@code min}, source field, and a 0/1 source field that must be
 *                   1 for a row to count (or null)
 * @param order      output fields to sort by, ascending
 */
public record Derivation(String from, List<String> by, List<Aggregate> aggregates, List<String> order) {

    /** {@code out = fn(src)} over the group's rows where {@code when} is 1 (all rows when null). */
    public record Aggregate(String out, String fn, String src, String when) {
    }

    /** The output fields: grouping fields, then aggregates. */
    public List<String> fields() {
        List<String> f = new ArrayList<>(by);
        for (Aggregate a : aggregates) f.add(a.out());
        return f;
    }

    /** The derived rows of {@code source}. */
    public List<Object[]> apply(DataBlock source) {
        int[] keys = by.stream().mapToInt(source::position).toArray();
        Map<String, Object[]> groups = new LinkedHashMap<>();
        for (Object[] r : source.rows()) {
            StringBuilder k = new StringBuilder();
            for (int p : keys) k.append(r[p]).append('\u0001');
            Object[] g = groups.computeIfAbsent(k.toString(), x -> {
                Object[] row = new Object[keys.length + aggregates.size()];
                for (int i = 0; i < keys.length; i++) row[i] = r[keys[i]];
                for (int i = 0; i < aggregates.size(); i++) row[keys.length + i] = aggregates.get(i).fn().equals("sum") ? 0L : null;
                return row;
            });
            for (int i = 0; i < aggregates.size(); i++) {
                Aggregate a = aggregates.get(i);
                if (a.when() != null && !Cells.truthy(r[source.position(a.when())])) continue;
                Object v = r[source.position(a.src())];
                if (v == null) continue;
                long x = ((Number) v).longValue();
                int o = keys.length + i;
                if (a.fn().equals("sum")) g[o] = (Long) g[o] + x;
                else g[o] = g[o] == null ? x : Math.min((Long) g[o], x);
            }
        }
        List<Object[]> rows = new ArrayList<>(groups.values());
        List<String> out = fields();
        Comparator<Object[]> cmp = (a, b) -> 0;
        for (String f : order) {
            int p = out.indexOf(f);
            cmp = cmp.thenComparing(r -> r[p] == null ? Long.MIN_VALUE : ((Number) r[p]).longValue(),
                    Comparator.<Long>naturalOrder());
        }
        rows.sort(cmp);
        return rows;
    }

    /** The recipe as the page carries it. */
    void json(ScriptJson w) {
        w.raw('{').string("from").raw(':').string(from).raw(',').string("by").raw(':');
        list(w, by);
        w.raw(',').string("agg").raw(':').raw('[');
        for (int i = 0; i < aggregates.size(); i++) {
            Aggregate a = aggregates.get(i);
            if (i > 0) w.raw(',');
            w.raw('[').value(a.out()).raw(',').value(a.fn()).raw(',').value(a.src()).raw(',').value(a.when()).raw(']');
        }
        w.raw(']').raw(',').string("order").raw(':');
        list(w, order);
        w.raw('}');
    }

    private static void list(ScriptJson w, List<String> l) {
        w.raw('[');
        for (int i = 0; i < l.size(); i++) {
            if (i > 0) w.raw(',');
            w.string(l.get(i));
        }
        w.raw(']');
    }
}
