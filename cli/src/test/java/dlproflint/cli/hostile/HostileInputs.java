package dlproflint.cli.hostile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/**
 * Builds broken and hostile inputs in a scratch folder, always from copies: a corpus file is only ever
 * read (copied), never opened for writing.
 */
final class HostileInputs {
    private final Path dir;

    HostileInputs(Path dir) {
        this.dir = dir;
    }

    Path dir() {
        return dir;
    }

    Path bytes(String name, byte[] content) throws IOException {
        return Files.write(dir.resolve(name), content);
    }

    Path text(String name, String content) throws IOException {
        return bytes(name, content.getBytes(StandardCharsets.UTF_8));
    }

    /** The small PyTorch trace of the end-to-end tests ({@code e2e/trace.json}), copied in as {@code name}. */
    Path e2eTrace(String name) throws IOException {
        try (java.io.InputStream in = HostileInputs.class.getClassLoader().getResourceAsStream("e2e/trace.json")) {
            return Files.write(dir.resolve(name), in.readAllBytes());
        }
    }

    /** The first {@code length} bytes of {@code src}. */
    Path truncated(Path src, long length, String name) throws IOException {
        byte[] all = Files.readAllBytes(src);
        return bytes(name, Arrays.copyOf(all, (int) Math.min(length, all.length)));
    }

    /** A copy of {@code src} changed by SQL statements (run on the copy only). */
    Path sql(Path src, String name, String... statements) throws IOException, SQLException {
        Path copy = dir.resolve(name);
        Files.copy(src, copy, StandardCopyOption.REPLACE_EXISTING);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement st = c.createStatement()) {
            for (String s : statements) st.execute(s);
        }
        return copy;
    }

    /** A FIFO (named pipe) nobody writes to. */
    Path fifo(String name) throws IOException, InterruptedException {
        Path p = dir.resolve(name);
        Files.deleteIfExists(p);
        if (new ProcessBuilder("mkfifo", p.toString()).start().waitFor() != 0) throw new IOException("mkfifo failed");
        return p;
    }

    /** Statements that replace {@code table} by a view over a recursive query that never ends. */
    static String[] endlessView(String table) {
        return new String[] {"ALTER TABLE \"" + table + "\" RENAME TO \"" + table + "_rows\"",
                "CREATE VIEW \"" + table + "\" AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) "
                        + "SELECT \"" + table + "_rows\".* FROM \"" + table + "_rows\", r"};
    }

    /** Statements that add {@code n} copies of the first TARGET_INFO_GPU row, with ids 1000.., none of which runs anything. */
    static String[] manyGpuRows(int n) {
        return new String[] {
                "CREATE TEMP TABLE one_gpu AS SELECT * FROM TARGET_INFO_GPU LIMIT 1",
                "CREATE TEMP TABLE more_gpus AS WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < " + n + ") "
                        + "SELECT one_gpu.* FROM one_gpu, k",
                "UPDATE more_gpus SET id = 1000 + rowid",
                "INSERT INTO TARGET_INFO_GPU SELECT * FROM more_gpus"};
    }

    /** Gzip-compresses {@code content}. */
    static byte[] gzip(byte[] content) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
            gz.write(content);
        }
        return bos.toByteArray();
    }

    static byte[] random(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** A JPEG's start-of-image and JFIF marker followed by noise. */
    static byte[] jpeg() {
        byte[] b = random(7, 4096);
        byte[] head = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0};
        System.arraycopy(head, 0, b, 0, head.length);
        return b;
    }

    static List<String> tables(Path file) throws SQLException {
        return query(file, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
    }

    /** Columns of {@code table} without NOT NULL and not the primary key. */
    static List<String> nullableColumns(Path file, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + file + "?mode=ro", ro());
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA table_info(\"" + table + "\")")) {
            while (rs.next()) {
                if (rs.getInt("notnull") == 0 && rs.getInt("pk") == 0) out.add(rs.getString("name"));
            }
        }
        return out;
    }

    static List<String> query(Path file, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + file + "?mode=ro", ro());
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    private static java.util.Properties ro() {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("open_mode", "1"); // SQLITE_OPEN_READONLY: listing a corpus file never writes to it
        return p;
    }
}
