package dlproflint.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;

/**
 * Variants of real profiles made by transforming a copy (the original is only ever read): step ranges added to
 * or re-stored in a copy of an Nsight Systems export (made with {@link SqliteVariant#of}), event-list edits on
 * a copy of a Kineto trace. They show that what the readers
 * find does not depend on one file's quirks (names, column sets, which tables exist).
 */
public final class ProfileVariants {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ProfileVariants() {
    }

    /**
     * Wraps every NVTX push/pop range whose text matches {@code like} in a new range named {@code name(text)}, 1 ns
     * longer on each side, on the same thread: how a step marker sits around the step's own ranges. With
     * {@code registered} the new message is a string in {@code StringIds} referenced by {@code textId} (a
     * registered NVTX string), otherwise it is in the {@code text} column. Returns the wrapped ranges' new
     * windows {@code [start, end]}, in start order.
     */
    public static List<long[]> wrapRanges(Path db, String like, Function<String, String> name, boolean registered)
            throws SQLException {
        List<long[]> windows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.setAutoCommit(false);
            List<Object[]> rows = new ArrayList<>();
            try (PreparedStatement q = c.prepareStatement("SELECT start, end, text, globalTid, eventType FROM NVTX_EVENTS "
                    + "WHERE eventType = 59 AND text LIKE ? ORDER BY start")) {
                q.setString(1, like);
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new Object[] {rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getLong(4), rs.getInt(5)});
                    }
                }
            }
            long nextId;
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(id), 0) + 1 FROM StringIds")) {
                nextId = rs.getLong(1);
            }
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId, "
                    + "domainId) VALUES (?, ?, ?, ?, ?, ?, 0)");
                 PreparedStatement str = c.prepareStatement("INSERT INTO StringIds (id, value) VALUES (?, ?)")) {
                for (Object[] r : rows) {
                    long start = (long) r[0] - 1;
                    long end = (long) r[1] + 1;
                    String text = name.apply((String) r[2]);
                    ins.setLong(1, start);
                    ins.setLong(2, end);
                    ins.setInt(3, (int) r[4]);
                    if (registered) {
                        str.setLong(1, nextId);
                        str.setString(2, text);
                        str.executeUpdate();
                        ins.setNull(4, java.sql.Types.VARCHAR);
                        ins.setLong(6, nextId++);
                    } else {
                        ins.setString(4, text);
                        ins.setNull(6, java.sql.Types.INTEGER);
                    }
                    ins.setLong(5, (long) r[3]);
                    ins.executeUpdate();
                    windows.add(new long[] {start, end});
                }
            }
            c.commit();
        }
        return windows;
    }

    /** Moves every NVTX message from the {@code text} column into {@code StringIds} ({@code textId}), as registered strings are stored. */
    public static void registerAllNvtxText(Path db) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.setAutoCommit(false);
            List<String> texts = new ArrayList<>();
            long next;
            try (Statement st = c.createStatement()) {
                try (ResultSet rs = st.executeQuery("SELECT DISTINCT text FROM NVTX_EVENTS WHERE text IS NOT NULL ORDER BY text")) {
                    while (rs.next()) texts.add(rs.getString(1));
                }
                try (ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(id), 0) + 1 FROM StringIds")) {
                    next = rs.getLong(1);
                }
            }
            try (PreparedStatement str = c.prepareStatement("INSERT INTO StringIds (id, value) VALUES (?, ?)");
                 PreparedStatement upd = c.prepareStatement("UPDATE NVTX_EVENTS SET textId = ?, text = NULL WHERE text = ?")) {
                for (String t : texts) {
                    str.setLong(1, next);
                    str.setString(2, t);
                    str.executeUpdate();
                    upd.setLong(1, next++);
                    upd.setString(2, t);
                    upd.executeUpdate();
                }
            }
            c.commit();
        }
    }

    // ------------------------------------------------------------------ Kineto

    /** The {@code traceEvents} of a Kineto trace (plain or gzip), as a mutable list. */
    public static List<JsonNode> events(JsonNode trace) {
        List<JsonNode> out = new ArrayList<>();
        (trace.isArray() ? trace : trace.path("traceEvents")).forEach(out::add);
        return out;
    }

    public static JsonNode readTrace(Path source) throws IOException {
        try (InputStream raw = Files.newInputStream(source);
             InputStream in = source.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
            return JSON.readTree(in);
        }
    }

    /** A copy of a Kineto trace (written as plain JSON) whose event list went through {@code edit}. */
    public static Path kineto(Path source, Path dir, String name, UnaryOperator<List<JsonNode>> edit) throws IOException {
        JsonNode trace = readTrace(source);
        return writeTrace(trace, edit.apply(events(trace)), dir, name);
    }

    /** Writes {@code events} as a copy of {@code trace} (its top-level fields kept) to {@code dir}, as plain JSON. */
    public static Path writeTrace(JsonNode trace, List<? extends JsonNode> events, Path dir, String name) throws IOException {
        ArrayNode array = JSON.createArrayNode();
        events.forEach(array::add);
        JsonNode out;
        if (trace.isArray()) {
            out = array;
        } else {
            ObjectNode o = ((ObjectNode) trace).deepCopy();
            o.set("traceEvents", array);
            out = o;
        }
        Path p = dir.resolve(name.replaceAll("[^A-Za-z0-9_.-]", "_") + ".json");
        JSON.writeValue(p.toFile(), out);
        return p;
    }

    /** Kineto edit: drop the events whose name matches. */
    public static UnaryOperator<List<JsonNode>> without(Predicate<String> name) {
        return events -> events.stream().filter(e -> !name.test(e.path("name").asText(""))).toList();
    }

    /** Kineto edit: rename the events whose name matches. */
    public static UnaryOperator<List<JsonNode>> renamed(Predicate<String> name, UnaryOperator<String> rename) {
        return events -> events.stream().map(e -> {
            String n = e.path("name").asText("");
            if (!name.test(n) || !e.isObject()) return e;
            ObjectNode copy = ((ObjectNode) e).deepCopy();
            copy.put("name", rename.apply(n));
            return (JsonNode) copy;
        }).toList();
    }

    /** Kineto edit: keep everything and add copies of the matching events made by {@code copy}. */
    public static UnaryOperator<List<JsonNode>> plusCopies(Predicate<JsonNode> which, UnaryOperator<ObjectNode> copy) {
        return events -> {
            List<JsonNode> out = new ArrayList<>(events);
            for (JsonNode e : events) if (e.isObject() && which.test(e)) out.add(copy.apply(((ObjectNode) e).deepCopy()));
            return out;
        };
    }

    /** CPU-side events (cpu_op, user_annotation, and their 2021 spelling Operator) named by the predicate: {@code [ts, dur]} in µs. */
    public static List<double[]> cpuEvents(JsonNode trace, Predicate<String> name) {
        List<double[]> out = new ArrayList<>();
        for (JsonNode e : events(trace)) {
            String cat = e.path("cat").asText("").toLowerCase(java.util.Locale.ROOT);
            if (!"X".equals(e.path("ph").asText()) || !(cat.equals("cpu_op") || cat.equals("user_annotation") || cat.equals("operator"))) continue;
            if (name.test(e.path("name").asText(""))) out.add(new double[] {e.path("ts").asDouble(), e.path("dur").asDouble()});
        }
        out.sort((a, b) -> Double.compare(a[0], b[0]));
        return out;
    }
}
