package dlproflint.reporters.dlprof;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * The JSON form of a DLProf report. The DLProf manual only says reports can be written as JSON, so
 * the document mirrors the CSV: one top-level member per section, named by the section title, with
 * the CSV's row names and column headers as member names. Key/value sections become objects;
 * tables become arrays of row objects, except tables with an empty first header (the summary's
 * All Ops / All Kernels), which become objects keyed by the row name. Integers and averages are JSON
 * numbers (averages rounded to one decimal like the CSV), yes/no columns are booleans, text is
 * strings (empty text: {@code ""} where the CSV prints {@code ""}, null where it prints nothing).
 * Written with a streaming generator, so the iteration report never holds its rows; sections are
 * indented and each row is one line ({@link RowPerLinePrinter}).
 */
final class JsonReportWriter implements ReportWriter {
    private static final JsonFactory FACTORY = dlproflint.reporters.SafeJson.factory()
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    private final JsonGenerator gen;
    private List<Column> columns;
    private boolean keyedTable;

    JsonReportWriter(OutputStream out) throws IOException {
        gen = FACTORY.createGenerator(out);
        gen.setPrettyPrinter(new RowPerLinePrinter());
        gen.writeStartObject();
    }

    @Override
    public void keyValueSection(String title, List<KeyValue> entries) throws IOException {
        gen.writeObjectFieldStart(title);
        for (KeyValue e : entries) {
            gen.writeFieldName(e.name());
            writeValue(e.value(), e.type());
        }
        gen.writeEndObject();
    }

    @Override
    public void beginTable(String title, List<Column> columns) throws IOException {
        this.columns = List.copyOf(columns);
        keyedTable = !columns.isEmpty() && columns.get(0).header().isEmpty();
        if (keyedTable) gen.writeObjectFieldStart(title);
        else gen.writeArrayFieldStart(title);
    }

    @Override
    public void row(Object... values) throws IOException {
        if (columns == null) throw new IllegalStateException("row outside a table");
        if (values.length != columns.size()) {
            throw new IllegalArgumentException("row has " + values.length + " values for " + columns.size() + " columns");
        }
        int first = 0;
        if (keyedTable) {
            gen.writeObjectFieldStart(String.valueOf(values[0]));
            first = 1;
        } else {
            gen.writeStartObject();
        }
        for (int i = first; i < values.length; i++) {
            gen.writeFieldName(columns.get(i).header());
            writeValue(values[i], columns.get(i).type());
        }
        gen.writeEndObject();
    }

    @Override
    public void endTable() throws IOException {
        if (keyedTable) gen.writeEndObject();
        else gen.writeEndArray();
        columns = null;
    }

    @Override
    public void finish() throws IOException {
        gen.writeEndObject();
        gen.writeRaw('\n');
        gen.close(); // flushes; the target stream stays open (AUTO_CLOSE_TARGET disabled)
    }

    private void writeValue(Object value, CellType type) throws IOException {
        if (value == null) {
            if (type == CellType.QUOTED) gen.writeString("");
            else gen.writeNull();
            return;
        }
        switch (type) {
            case QUOTED, BARE, LINE -> gen.writeString(value.toString());
            case INT -> gen.writeNumber(((Number) value).longValue());
            case DECIMAL -> {
                double d = ((Number) value).doubleValue();
                if (Double.isFinite(d)) gen.writeNumber(Decimals.round1(d));
                else gen.writeNull();
            }
            case YES_NO -> gen.writeBoolean((Boolean) value);
            default -> throw new IllegalArgumentException(type.toString());
        }
    }
}
