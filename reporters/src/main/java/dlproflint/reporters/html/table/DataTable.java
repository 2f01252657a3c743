package dlproflint.reporters.html.table;

import java.util.ArrayList;
import java.util.List;

/**
 * A table of the report: sortable, searchable (everywhere and per column) and paged in the browser, with its
 * first page rendered on the server so the page reads without scripts. Rows come from a {@link DataBlock};
 * the table may show a subset of them ({@code initial}, e.g. the kernels of the op selected by default) and
 * may be the detail of a master table: selecting a master row shows the rows whose {@code links} fields
 * equal the master row's. Rendered by the {@code datatable} macro of {@code table.ftlh}.
 *
 * @param id          element id (unique in the page), also the target of {@code #hl=} and {@code #sel=} links
 * @param caption     what the table lists (its accessible name)
 * @param block       where the rows are
 * @param columns     shown and detail-only columns
 * @param total       rows that exist; more than the block holds when the block was capped
 * @param omitted     why rows are missing and where to find them, or null when the block holds every row
 * @param master      id of the master table, or null
 * @param links       detail field = master field pairs ({@code #} is the master row's index)
 * @param selectable  rows can be selected (for a detail table or a detail panel)
 * @param sortKey     column the block is sorted by, or null; {@code sortDesc} its direction
 * @param base        the subset of the block the table lists at all ({@code field=value}), or null for every row
 * @param initial     indexes of the rows shown before any interaction: the base rows, and for a detail table
 *                    those matching the master's initially selected row (its first initial row)
 * @param emptyText   what an empty table says
 */
public record DataTable(String id, String caption, DataBlock block, List<Column> columns, int total, String omitted,
                        String master, List<Link> links, boolean selectable, String sortKey, boolean sortDesc,
                        Link base, List<Integer> initial, String emptyText, Blocks blocks) {
    /** Rows per page before the reader picks another size. */
    public static final int PAGE = 10;

    /**
     * A detail row matches the selected master row when its {@code detail} field equals the master's
     * {@code master} field ({@code #}: the master row's index). As a base filter: field {@code detail} equals
     * the literal {@code master}.
     */
    public record Link(String detail, String master) {
    }

    /** A header cell. */
    public record Header(String key, String label, String hint, String kind, boolean numeric, String ariaSort) {
    }

    /** A link from a cell to a finding card. */
    public record FindingLink(String href, String icon, String severity, String label, String title) {
    }

    /** A body cell. */
    public record Cell(String text, String title, String css, List<FindingLink> findings) {
    }

    /** A rendered row; {@code index} is the row's index in the block. */
    public record Row(int index, List<Cell> cells, boolean selected) {
    }

    /** A labelled value of the detail panel. */
    public record Detail(String label, String text) {
    }

    public List<Header> headers() {
        List<Header> out = new ArrayList<>();
        for (Column c : columns) {
            if (!c.shown()) continue;
            String aria = c.key().equals(sortKey) ? (sortDesc ? "descending" : "ascending") : null;
            out.add(new Header(c.key(), c.label(), c.hint(), c.kind().code(), c.kind().numeric(), aria));
        }
        return out;
    }

    /** Rows shown before any interaction. */
    public int initialCount() {
        return initial.size();
    }

    /** The first page of the initial rows, as the script would render it. */
    public List<Row> firstPage() {
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < Math.min(PAGE, initial.size()); i++) {
            int r = initial.get(i);
            List<Cell> cells = new ArrayList<>();
            for (Column c : columns) if (c.shown()) cells.add(cell(c, r));
            out.add(new Row(r, cells, selectable && i == 0));
        }
        return out;
    }

    /** Every column of the initially selected row (the first initial row), for the detail panel; empty when none. */
    public List<Detail> selectedDetail() {
        List<Detail> out = new ArrayList<>();
        if (!selectable || initial.isEmpty()) return out;
        int r = initial.get(0);
        for (Column c : columns) {
            if (c.kind() == Column.Kind.FINDINGS) continue;
            Object v = value(c, r);
            out.add(new Detail(c.label(), v instanceof String s ? s : Cells.text(c.kind(), v)));
        }
        return out;
    }

    /** The raw value column {@code c} shows for block row {@code r}, following a reference. */
    public Object value(Column c, int r) {
        Object v = block.value(r, c.field());
        if (c.isRef() && v == null && c.fallback() != null) return block.value(r, c.fallback());
        if (!c.isRef() || v == null || c.kind() == Column.Kind.FINDINGS) return v;
        DataBlock target = blocks.get(c.ref());
        int i = ((Number) v).intValue();
        return i < 0 || i >= target.size() ? null : target.value(i, c.refField());
    }

    private Cell cell(Column c, int r) {
        Object v = value(c, r);
        String css = c.kind().numeric() ? "num" : c.kind() == Column.Kind.BOOL ? (Cells.truthy(v) ? "yes" : "no")
                : c.kind() == Column.Kind.TEXT ? "name" : null;
        if (c.kind() == Column.Kind.FINDINGS) return new Cell("", null, "fl", findingLinks(c, v));
        return new Cell(Cells.text(c.kind(), v), Cells.title(c.kind(), v), css, List.of());
    }

    private List<FindingLink> findingLinks(Column c, Object v) {
        List<FindingLink> out = new ArrayList<>();
        if (!(v instanceof int[] idx)) return out;
        DataBlock f = blocks.get(c.ref());
        for (int i : idx) {
            String rule = String.valueOf(f.value(i, "rule"));
            out.add(new FindingLink("#" + f.value(i, "anchor"), String.valueOf(f.value(i, "icon")),
                    String.valueOf(f.value(i, "severity")), rule.substring(rule.lastIndexOf('/') + 1),
                    String.valueOf(f.value(i, "problem"))));
        }
        return out;
    }

    public static Builder builder(String id, String caption, DataBlock block, Blocks blocks) {
        return new Builder(id, caption, block, blocks);
    }

    /** Builds a table over a block; by default every row, not selectable, not a detail. */
    public static final class Builder {
        private final String id;
        private final String caption;
        private final DataBlock block;
        private final Blocks blocks;
        private final List<Column> columns = new ArrayList<>();
        private int total = -1;
        private String omitted;
        private DataTable master;
        private Link base;
        private final List<Link> links = new ArrayList<>();
        private boolean selectable;
        private String sortKey;
        private boolean sortDesc;
        private String emptyText = "No rows.";

        private Builder(String id, String caption, DataBlock block, Blocks blocks) {
            this.id = id;
            this.caption = caption;
            this.block = block;
            this.blocks = blocks;
        }

        public Builder columns(List<Column> cs) {
            columns.addAll(cs);
            return this;
        }

        public Builder column(Column c) {
            columns.add(c);
            return this;
        }

        /** {@code total} rows exist; {@code why} says why the block holds fewer and where the rest are. */
        public Builder capped(int total, String why) {
            this.total = total;
            this.omitted = total > block.size() ? why : null;
            return this;
        }

        public Builder detailOf(DataTable masterTable, Link... ls) {
            master = masterTable;
            links.addAll(List.of(ls));
            return this;
        }

        /** Lists only the rows whose {@code field} equals {@code value} (e.g. aggregated iterations). */
        public Builder base(String field, Object value) {
            base = new Link(field, String.valueOf(plain(value)));
            return this;
        }

        public Builder selectable() {
            selectable = true;
            return this;
        }

        public Builder sortedBy(String key, boolean desc) {
            sortKey = key;
            sortDesc = desc;
            return this;
        }

        public Builder empty(String text) {
            emptyText = text;
            return this;
        }

        public DataTable build() {
            for (Column c : columns) {
                block.position(c.field());
                if (c.fallback() != null) block.position(c.fallback());
                if (c.isRef() && c.kind() != Column.Kind.FINDINGS) blocks.get(c.ref()).position(c.refField());
            }
            for (Link l : links) {
                block.position(l.detail());
                if (!l.master().equals("#")) master.block().position(l.master());
            }
            Integer selected = master == null || master.initial().isEmpty() ? null : master.initial().get(0);
            List<Integer> rows = new ArrayList<>();
            for (int i = 0; i < block.size(); i++) {
                if (base != null && !String.valueOf(plain(block.value(i, base.detail()))).equals(base.master())) continue;
                if (master != null && (selected == null || !matches(i, selected))) continue;
                rows.add(i);
            }
            return new DataTable(id, caption, block, List.copyOf(columns), Math.max(total, block.size()), omitted,
                    master == null ? null : master.id(), List.copyOf(links), selectable, sortKey, sortDesc, base,
                    List.copyOf(rows), emptyText, blocks);
        }

        private boolean matches(int row, int masterRow) {
            for (Link l : links) {
                Object mine = block.value(row, l.detail());
                Object theirs = l.master().equals("#") ? (Object) masterRow : master.block().value(masterRow, l.master());
                if (!String.valueOf(plain(mine)).equals(String.valueOf(plain(theirs)))) return false;
            }
            return true;
        }

        /** Booleans as the 1/0 the data holds, numbers as integers where they are, as the script compares them. */
        private static Object plain(Object v) {
            if (v instanceof Boolean b) return b ? 1 : 0;
            if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) return n.longValue();
            return v;
        }
    }

    /** The column spec the script reads ({@code data-cols}): key, label, kind, field, ref, ref field, shown, hint, fallback. */
    public String columnSpec() {
        StringBuilder b = new StringBuilder();
        ScriptJson w = new ScriptJson(b);
        w.raw('[');
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            if (i > 0) w.raw(',');
            w.raw('[').value(c.key()).raw(',').value(c.label()).raw(',').value(c.kind().code()).raw(',')
                    .value(c.field()).raw(',').value(c.ref()).raw(',').value(c.refField()).raw(',')
                    .value(c.shown()).raw(',').value(c.hint()).raw(',').value(c.fallback()).raw(']');
        }
        return b.append(']').toString();
    }

    /** {@code detail=master,...} for {@code data-links}. */
    public String linkSpec() {
        StringBuilder b = new StringBuilder();
        for (Link l : links) {
            if (b.length() > 0) b.append(',');
            b.append(l.detail()).append('=').append(l.master());
        }
        return b.toString();
    }
}
