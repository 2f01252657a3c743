package dlproflint.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Variants of a corpus SQLite profile for generalisation tests: a copy (the original is never touched) with
 * SQL statements applied, e.g. kernel rows deleted or a table dropped to look like another producer's file.
 */
public final class SqliteVariant {
    private SqliteVariant() {
    }

    /** A copy of {@code source} named {@code name}.sqlite in {@code dir} with {@code statements} applied. */
    public static Path of(Path source, Path dir, String name, String... statements) throws IOException, SQLException {
        Path p = dir.resolve(name.replaceAll("[^A-Za-z0-9_.-]", "_") + ".sqlite");
        Files.copy(source, p);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + p); Statement st = c.createStatement()) {
            for (String s : statements) st.execute(s);
        }
        return p;
    }

    /** Statements dropping every view (views pin the columns they name, so a column cannot be dropped under them). */
    public static List<String> dropViews(Path source) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + source + "?mode=ro&immutable=1");
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'view'")) {
            while (rs.next()) out.add("DROP VIEW \"" + rs.getString(1) + "\"");
        }
        return out;
    }
}
