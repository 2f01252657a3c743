package dlproflint.extract.nsys;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads DLProf's CSV reports (RFC 4180 quoting, multi-line stack traces) for parity tests. */
final class DlprofCsv {
    private DlprofCsv() {
    }

    static List<List<String>> rows(Path file) throws IOException {
        return dlproflint.testing.CsvRecords.read(file);
    }

    /** A table report (title line, header line, rows) as header → value maps. */
    static List<Map<String, String>> table(Path file) throws IOException {
        List<List<String>> rows = rows(file);
        List<String> header = rows.get(1);
        List<Map<String, String>> out = new ArrayList<>();
        for (int r = 2; r < rows.size(); r++) {
            List<String> row = rows.get(r);
            if (row.size() < header.size()) continue;
            Map<String, String> m = new LinkedHashMap<>();
            for (int c = 0; c < header.size(); c++) m.put(header.get(c), row.get(c));
            out.add(m);
        }
        return out;
    }

    /** The summary report: section title → (row label → cells after the label). */
    static Map<String, Map<String, List<String>>> summary(Path file) throws IOException {
        Map<String, Map<String, List<String>>> out = new LinkedHashMap<>();
        Map<String, List<String>> section = null;
        for (List<String> row : rows(file)) {
            if (row.isEmpty() || row.size() == 1 && row.get(0).isBlank()) {
                section = null;
                continue;
            }
            if (section == null) {
                section = new LinkedHashMap<>();
                out.put(row.get(0), section);
                continue;
            }
            section.put(row.get(0), row.subList(1, row.size()));
        }
        return out;
    }
}
