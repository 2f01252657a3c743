package dlproflint.reporters.dlprof;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses a DLProf CSV report (ours or DLProf's) into its sections: a title line, then rows, sections
 * separated by an empty line. Fields follow RFC 4180 (quoted fields may hold commas, doubled quotes
 * and line breaks). Used by tests to compare reports cell by cell.
 */
final class DlprofCsv {
    /** One section: its title and its rows (the first row of a table is its header). */
    record Section(String title, List<List<String>> rows) {
        List<String> header() {
            return rows.isEmpty() ? List.of() : rows.get(0);
        }

        List<List<String>> body() {
            return rows.isEmpty() ? List.of() : rows.subList(1, rows.size());
        }

        /** Key/value sections: first cell → rest of the line joined back with commas. */
        Map<String, String> keyValues() {
            Map<String, String> map = new LinkedHashMap<>();
            for (List<String> r : rows) map.put(r.get(0), String.join(",", r.subList(1, r.size())));
            return map;
        }

        /** Table rows as header → cell maps. */
        List<Map<String, String>> records() {
            List<Map<String, String>> out = new ArrayList<>();
            List<String> h = header();
            for (List<String> r : body()) {
                Map<String, String> m = new LinkedHashMap<>();
                for (int i = 0; i < h.size(); i++) m.put(h.get(i), i < r.size() ? r.get(i) : null);
                out.add(m);
            }
            return out;
        }
    }

    private DlprofCsv() {
    }

    static List<Section> read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8));
    }

    static Map<String, Section> byTitle(Path file) throws IOException {
        Map<String, Section> map = new LinkedHashMap<>();
        for (Section s : read(file)) map.put(s.title(), s);
        return map;
    }

    static List<Section> parse(String text) {
        List<Section> sections = new ArrayList<>();
        String title = null;
        List<List<String>> rows = new ArrayList<>();
        for (List<String> record : records(text)) {
            boolean blank = record.size() == 1 && record.get(0).isEmpty();
            if (blank) {
                if (title != null) sections.add(new Section(title, rows));
                title = null;
                rows = new ArrayList<>();
            } else if (title == null) {
                title = record.get(0);
            } else {
                rows.add(record);
            }
        }
        if (title != null) sections.add(new Section(title, rows));
        return sections;
    }

    /** RFC 4180 records; a line break ends a record outside quotes. */
    static List<List<String>> records(String text) {
        List<List<String>> out = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < n && text.charAt(i + 1) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                record.add(field.toString());
                field.setLength(0);
            } else if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') i++;
                record.add(field.toString());
                field.setLength(0);
                out.add(record);
                record = new ArrayList<>();
            } else {
                field.append(c);
            }
        }
        if (field.length() > 0 || !record.isEmpty()) {
            record.add(field.toString());
            out.add(record);
        }
        return out;
    }
}
