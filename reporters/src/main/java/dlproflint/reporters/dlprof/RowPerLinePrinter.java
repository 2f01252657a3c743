package dlproflint.reporters.dlprof;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;

import java.io.IOException;

/**
 * JSON layout for DLProf reports: the document and its sections are indented, one member per line;
 * each table row (and each keyed row of the summary) is one compact line. An iteration report of a
 * million launches stays readable line by line and a third smaller than fully indented JSON.
 */
final class RowPerLinePrinter implements PrettyPrinter {
    /** Objects up to this depth (document = 1, section = 2) get one member per line. */
    private static final int EXPANDED_DEPTH = 2;

    private int depth;

    private static void newline(JsonGenerator g, int indent) throws IOException {
        g.writeRaw('\n');
        for (int i = 0; i < indent; i++) g.writeRaw("  ");
    }

    @Override
    public void writeRootValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw('\n');
    }

    @Override
    public void writeStartObject(JsonGenerator g) throws IOException {
        g.writeRaw('{');
        depth++;
    }

    @Override
    public void beforeObjectEntries(JsonGenerator g) throws IOException {
        if (depth <= EXPANDED_DEPTH) newline(g, depth);
    }

    @Override
    public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw(depth <= EXPANDED_DEPTH ? ": " : ":");
    }

    @Override
    public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
        g.writeRaw(',');
        if (depth <= EXPANDED_DEPTH) newline(g, depth);
    }

    @Override
    public void writeEndObject(JsonGenerator g, int nrOfEntries) throws IOException {
        if (depth <= EXPANDED_DEPTH && nrOfEntries > 0) newline(g, depth - 1);
        g.writeRaw('}');
        depth--;
    }

    @Override
    public void writeStartArray(JsonGenerator g) throws IOException {
        g.writeRaw('[');
        depth++;
    }

    @Override
    public void beforeArrayValues(JsonGenerator g) throws IOException {
        newline(g, depth);
    }

    @Override
    public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw(',');
        newline(g, depth);
    }

    @Override
    public void writeEndArray(JsonGenerator g, int nrOfValues) throws IOException {
        if (nrOfValues > 0) newline(g, depth - 1);
        g.writeRaw(']');
        depth--;
    }
}
