package dlproflint.reporters.csv;

import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dlproflint.reporters.SafeText;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * RFC 4180 rows of the lint CSV, written by Jackson's CSV dataformat. Every text cell goes through {@link SafeText#cell}, the
 * neutralisation all CSV writers and the text report share (formula prefixes, control and bidi characters).
 */
public final class Csv {
    private Csv() {
    }

    /** The value (null: empty) with a leading {@code '} when a spreadsheet would treat it as a formula; controls escaped. */
    public static String neutralise(String value) {
        return SafeText.cell(value);
    }

    /**
     * Jackson's CSV generator for RFC 4180 rows of text cells: comma-separated, a field quoted only when it must be
     * (comma, quote, CR or LF: the strict check; the loose default also quotes spaces and punctuation), quotes
     * doubled, lines ended by {@code eol}. The caller neutralises each cell first ({@link #neutralise}).
     */
    public static CsvGenerator generator(Writer out, String eol) throws IOException {
        CsvGenerator g = FACTORY.createGenerator(out);
        g.setSchema(CsvSchema.emptySchema().withLineSeparator(eol));
        return g;
    }

    /**
     * Writes one row of cells, each neutralised. Jackson's strict check knows the line separator by its first
     * character only (CR of CRLF), so a cell holding a bare LF (a multi-line recommendation) is quoted explicitly.
     */
    public static void row(CsvGenerator g, List<String> cells) throws IOException {
        g.writeStartArray();
        for (String c : cells) {
            String v = neutralise(c);
            boolean lineFeed = v.indexOf('\n') >= 0;
            if (lineFeed) g.enable(CsvGenerator.Feature.ALWAYS_QUOTE_STRINGS);
            g.writeString(v);
            if (lineFeed) g.disable(CsvGenerator.Feature.ALWAYS_QUOTE_STRINGS);
        }
        g.writeEndArray();
    }

    private static final CsvFactory FACTORY = CsvFactory.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();
}
