package dlproflint.extract.kernels;

import dlproflint.testing.Corpus;
import dlproflint.testing.KinetoEvents;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every kernel name of the corpus, read straight from the files (not through the readers): nsys exports
 * ({@code CUPTI_ACTIVITY_KIND_KERNEL} short and demangled names), DLProf databases ({@code read_only_kernels}
 * name and long name, {@code kernel_summaries}) and Kineto traces ({@code kernel} events), each as the
 * (short, long) pair a reader classifies, with the files it occurs in and its total GPU time there.
 */
final class CorpusKernelNames {
    /** A kernel as readers see it; {@code shortName} may equal {@code longName}. */
    record Name(String shortName, String longName) implements Comparable<Name> {
        @Override
        public int compareTo(Name o) {
            int c = longName.compareTo(o.longName);
            return c != 0 ? c : shortName.compareTo(o.shortName);
        }
    }

    private CorpusKernelNames() {
    }

    /** name → corpus files holding it */
    static Map<Name, TreeSet<String>> all() throws IOException, SQLException {
        Map<Name, TreeSet<String>> out = new TreeMap<>();
        for (String rel : Corpus.profiles()) {
            for (Name n : of(Corpus.file(rel))) out.computeIfAbsent(n, k -> new TreeSet<>()).add(rel);
        }
        return out;
    }

    static List<Name> of(Path file) throws IOException, SQLException {
        String f = file.getFileName().toString();
        if (f.endsWith(".sqlite")) return sqlite(file);
        TreeSet<Name> names = new TreeSet<>();
        KinetoEvents.forEach(file, e -> {
            if (KinetoEvents.isKernel(e) && e.hasNonNull("name")) names.add(new Name(e.get("name").asText(), e.get("name").asText()));
        });
        return new ArrayList<>(names);
    }

    private static List<Name> sqlite(Path file) throws SQLException {
        TreeSet<Name> names = new TreeSet<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + file + "?mode=ro&immutable=1");
             Statement st = c.createStatement()) {
            if (has(st, "CUPTI_ACTIVITY_KIND_KERNEL")) {
                String demangled = hasColumn(st, "CUPTI_ACTIVITY_KIND_KERNEL", "demangledName") ? "demangledName" : "shortName";
                collect(st, "SELECT DISTINCT s.value, COALESCE(d.value, s.value) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                        + "JOIN StringIds s ON s.id = k.shortName LEFT JOIN StringIds d ON d.id = k." + demangled, names);
            }
            if (has(st, "read_only_kernels")) {
                collect(st, "SELECT DISTINCT s.string, COALESCE(l.string, s.string) FROM read_only_kernels k "
                        + "JOIN dictionary s ON s.id = k.name_id LEFT JOIN dictionary l ON l.id = k.long_name_id", names);
                collect(st, "SELECT DISTINCT s.string, s.string FROM kernel_summaries k JOIN dictionary s ON s.id = k.kernel_name_id"
                        + " WHERE NOT EXISTS (SELECT 1 FROM read_only_kernels r WHERE r.name_id = k.kernel_name_id)", names);
            }
        }
        return new ArrayList<>(names);
    }

    private static void collect(Statement st, String sql, TreeSet<Name> into) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) into.add(new Name(rs.getString(1), rs.getString(2)));
        }
    }

    private static boolean has(Statement st, String table) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'")) {
            return rs.next();
        }
    }

    private static boolean hasColumn(Statement st, String table, String column) throws SQLException {
        try (ResultSet rs = st.executeQuery("PRAGMA table_info(" + table + ")")) {
            while (rs.next()) if (column.equals(rs.getString("name"))) return true;
        }
        return false;
    }

}
