package dlproflint.reporters.dlprof;

import dlproflint.facts.InstanceSource;
import dlproflint.facts.KernelInstance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * DLProf's Iteration Report ({@code dlprof_iteration.csv}): one row per kernel launch, written while
 * the reader streams the launches ({@link InstanceSource}), so memory stays flat
 * however many launches the profile holds. Rows come in the reader's order (launch order); DLProf
 * sorted them by op (name, then id), kernel name and start time, which would need every row in
 * memory or an external sort. The Long Kernel Name is each launch's own demangled name (DLProf
 * printed one long name per op and kernel name even when launches differ in template arguments).
 * Memory copies and sets are not listed, as in DLProf. The Parameters column is always empty: the
 * facts carry no op parameter values.
 */
final class IterationReport implements DlprofReport {
    static final String TITLE = "Iteration Report";

    private final InstanceSource instances;
    private final Layout layout;

    IterationReport(InstanceSource instances, Layout layout) {
        this.instances = instances;
        this.layout = layout;
    }

    static List<Column> columns(Layout layout) {
        List<Column> cols = new ArrayList<>();
        cols.add(Column.integer("Iteration"));
        cols.add(Column.quoted("Op ID"));
        cols.add(Column.quoted("Op Name"));
        if (layout.hasDirection()) cols.add(Column.bare("Direction"));
        cols.add(Column.quoted("Op Type"));
        cols.add(Column.quoted("Kernel Name"));
        cols.add(Column.integer("Device ID"));
        cols.add(Column.integer("GPU Start Time (ns)"));
        cols.add(Column.integer("GPU Duration (ns)"));
        cols.add(Column.integer("API Call Start (ns)"));
        cols.add(Column.integer("API Call Time (ns)"));
        cols.add(Column.yesNo("Uses TC"));
        for (String dim : List.of("Grid X", "Grid Y", "Grid Z", "Block X", "Block Y", "Block Z")) {
            cols.add(Column.integer(dim));
        }
        cols.add(Column.bare("Data Types"));
        cols.add(Column.quoted("Input Shapes"));
        cols.add(Column.quoted("Parameters"));
        cols.add(Column.quoted("Output Shapes"));
        cols.add(Column.quoted("Long Kernel Name"));
        return cols;
    }

    @Override
    public void render(ReportWriter out) throws IOException {
        List<Column> cols = columns(layout);
        out.beginTable(TITLE, cols);
        int width = cols.size();
        try {
            instances.forEach(instance -> {
                if (!"kernel".equals(instance.kind())) return;
                try {
                    out.row(row(instance, width));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        out.endTable();
    }

    private Object[] row(KernelInstance k, int width) {
        Object[] row = new Object[width];
        int i = 0;
        row[i++] = (long) k.iteration();
        row[i++] = k.opId();
        row[i++] = k.opName();
        if (layout.hasDirection()) row[i++] = Labels.direction(k.direction());
        row[i++] = k.opType();
        row[i++] = k.kernelName();
        row[i++] = (long) k.deviceId();
        row[i++] = k.gpuStartNs();
        row[i++] = k.gpuDurationNs();
        row[i++] = k.apiStartNs();
        row[i++] = k.apiDurationNs();
        row[i++] = k.usesTc();
        row[i++] = (long) k.gridX();
        row[i++] = (long) k.gridY();
        row[i++] = (long) k.gridZ();
        row[i++] = (long) k.blockX();
        row[i++] = (long) k.blockY();
        row[i++] = (long) k.blockZ();
        row[i++] = emptyToNull(k.dataTypes());
        row[i++] = k.inputShapes();
        row[i++] = "";
        row[i++] = k.outputShapes();
        row[i] = k.longName();
        return row;
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
