package dlproflint.extract.nsys;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Makes damaged copies of a profile (never touching the original) for the bad-input suite. */
final class Mutations {
    private final Path dir;
    private int n;

    Mutations(Path dir) {
        this.dir = dir;
    }

    /** A fresh copy of {@code source} to damage. */
    Path copy(Path source, String name) throws IOException {
        Path p = dir.resolve(String.format("%03d-%s.sqlite", ++n, name.replaceAll("[^A-Za-z0-9_.-]", "_")));
        Files.copy(source, p);
        return p;
    }

    Path bytes(String name, byte[] content) throws IOException {
        Path p = dir.resolve(String.format("%03d-%s", ++n, name));
        Files.write(p, content);
        return p;
    }

    /** A copy with {@code statements} applied. */
    Path sql(Path source, String name, String... statements) throws IOException, SQLException {
        Path p = copy(source, name);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + p); Statement st = c.createStatement()) {
            for (String s : statements) st.execute(s);
        }
        return p;
    }

    /** A copy cut to {@code length} bytes. */
    Path truncated(Path source, long length) throws IOException {
        Path p = copy(source, "truncated-at-" + length);
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.setLength(length);
        }
        return p;
    }

    static List<String> tables(Path file) throws SQLException {
        return query(file, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    }

    /** Nullable columns (no NOT NULL, not a key) of a table. */
    static List<String> nullableColumns(Path file, String table) throws SQLException {
        return query(file, "SELECT name FROM pragma_table_info('" + table + "') WHERE \"notnull\" = 0 AND pk = 0");
    }

    static List<String> query(Path file, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + file + "?mode=ro");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }
}
