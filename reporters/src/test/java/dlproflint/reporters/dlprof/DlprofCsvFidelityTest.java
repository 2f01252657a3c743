package dlproflint.reporters.dlprof;

import dlproflint.testing.Corpus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Byte-for-byte check of the CSV layer against DLProf's own files: each corpus report is parsed and
 * written again through {@link CsvReportWriter} with our section titles and column definitions for
 * that report, typed as our reports type them (numbers parsed, yes/no to booleans, empty cells to
 * null). Reproducing the file exactly proves the titles, headers, column order, quoting rules,
 * number formatting, empty-cell conventions, multi-line stack traces and line endings match DLProf.
 */
class DlprofCsvFidelityTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "mohanadodema-dlprof/w_Relu/dlprof_summary.csv",
            "mohanadodema-dlprof/w_Relu/dlprof_detailed.csv",
            "mohanadodema-dlprof/w_Relu/dlprof_iteration.csv",
            "mohanadodema-dlprof/w_Relu/dlprof_kernel.csv",
            "mohanadodema-dlprof/w_Relu/dlprof_tensor_core.csv",
            "mohanadodema-dlprof/w_Relu/dlprof_op_type.csv",
            "mohanadodema-dlprof/w_Relu/dlprof_group_op.csv",
            "mohanadodema-dlprof/no_relu/dlprof_summary.csv",
            "mohanadodema-dlprof/no_relu/dlprof_detailed.csv",
            "mohanadodema-dlprof/no_relu/dlprof_iteration.csv",
            "mohanadodema-dlprof/no_relu/dlprof_kernel.csv",
            "mohanadodema-dlprof/no_relu/dlprof_tensor_core.csv",
            "mohanadodema-dlprof/no_relu/dlprof_op_type.csv",
            "mohanadodema-dlprof/no_relu/dlprof_group_op.csv",
            "chelseajohn-nvidia-dlprof/dlprof_summary.csv",
            "chelseajohn-nvidia-dlprof/example_2_dlprof_summary.csv",
            "dlprof-v100-tf1/tf_keras_v1_detailed.csv"})
    void rewritingDlprofsFileReproducesItExactly(String relative) throws Exception {
        Path file = Corpus.file(relative);
        String original = Files.readString(file, StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CsvReportWriter w = new CsvReportWriter(out);
        Layout layout = relative.contains("tf1") ? Layout.TENSORFLOW : Layout.PYTORCH;
        for (DlprofCsv.Section s : DlprofCsv.parse(original)) {
            switch (s.title()) {
                case "System Config", "Summary Report", "Iterations" -> w.keyValueSection(s.title(), keyValues(s));
                default -> {
                    List<Column> cols = columnsFor(s.title(), layout);
                    assertEquals(cols.stream().map(Column::header).toList(), s.header(), "header of " + s.title());
                    w.beginTable(s.title(), cols);
                    for (List<String> row : s.body()) w.row(typed(row, cols));
                    w.endTable();
                }
            }
        }
        w.finish();
        assertEquals(original, out.toString(StandardCharsets.UTF_8));
    }

    static List<Column> columnsFor(String title, Layout layout) {
        return switch (title) {
            case "All Ops" -> SummaryReport.ALL_OPS_COLUMNS;
            case "All Kernels" -> SummaryReport.ALL_KERNELS_COLUMNS;
            case DetailedReport.TITLE -> DetailedReport.columns(layout);
            case IterationReport.TITLE -> IterationReport.columns(layout);
            case KernelReport.TITLE -> KernelReport.columns(layout);
            case TensorCoreReport.TITLE -> TensorCoreReport.columns(layout);
            case OpTypeReport.TITLE -> OpTypeReport.columns();
            case GroupOpReport.TITLE -> GroupOpReport.columns();
            default -> throw new AssertionError("section '" + title + "' is not one we write");
        };
    }

    /** The summary's key/value rows, typed as {@link SummaryReport} types them. */
    private static List<KeyValue> keyValues(DlprofCsv.Section s) {
        List<KeyValue> out = new ArrayList<>();
        s.keyValues().forEach((name, value) -> {
            CellType type;
            if (name.equals("GPU Count") || name.equals("Wall Clock Time (ns)")
                    || (s.title().equals("Iterations") && !name.startsWith("Average") && !name.contains("Deviation"))) {
                type = CellType.INT;
            } else if (s.title().equals("System Config")) {
                type = CellType.LINE;
            } else {
                type = CellType.DECIMAL;
            }
            out.add(new KeyValue(name, parse(value, type), type));
        });
        return out;
    }

    static Object[] typed(List<String> row, List<Column> cols) {
        assertEquals(cols.size(), row.size(), "cells in " + row);
        Object[] values = new Object[row.size()];
        for (int i = 0; i < row.size(); i++) values[i] = parse(row.get(i), cols.get(i).type());
        return values;
    }

    static Object parse(String cell, CellType type) {
        return switch (type) {
            case INT -> cell.isEmpty() ? null : Long.parseLong(cell);
            case DECIMAL -> cell.isEmpty() ? null : Double.parseDouble(cell);
            case YES_NO -> switch (cell) {
                case "yes" -> Boolean.TRUE;
                case "no" -> Boolean.FALSE;
                default -> throw new AssertionError("not yes/no: " + cell);
            };
            case BARE -> cell.isEmpty() ? null : cell;
            case QUOTED, LINE -> cell;
        };
    }
}
