package dlproflint.reporters.csv;

import java.util.ArrayList;
import java.util.List;

/** A strict RFC 4180 reader for tests: quoted fields, doubled quotes, CRLF or LF record ends. */
final class Rfc4180 {
    private Rfc4180() {
    }

    static List<List<String>> parse(String s) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        int i = 0;
        boolean quoted = false;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < s.length() && s.charAt(i + 1) == '"') { field.append('"'); i += 2; continue; }
                if (c == '"') { quoted = false; i++; continue; }
                field.append(c);
                i++;
                continue;
            }
            if (c == '"') {
                if (field.length() != 0) throw new IllegalArgumentException("quote inside an unquoted field at " + i);
                quoted = true;
            } else if (c == ',') {
                row.add(field.toString());
                field.setLength(0);
            } else if (c == '\r' || c == '\n') {
                if (c == '\r' && (i + 1 >= s.length() || s.charAt(i + 1) != '\n')) {
                    throw new IllegalArgumentException("bare CR outside quotes at " + i);
                }
                if (c == '\r') i++;
                row.add(field.toString());
                field.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
            } else {
                field.append(c);
            }
            i++;
        }
        if (quoted) throw new IllegalArgumentException("unterminated quoted field");
        if (field.length() > 0 || !row.isEmpty()) { row.add(field.toString()); rows.add(row); }
        return rows;
    }
}
