package dlproflint.synth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Row-level writer of an nsys SQLite export: the real exporter's DDL ({@link NsysSchema}), interned
 * {@code StringIds}, and one batched prepared statement per table inside a single transaction with
 * {@code journal_mode=OFF, synchronous=OFF} (a generator, not a database: a crash leaves only a temporary
 * file, which {@link #close()} renames into place atomically).
 *
 * <p>Like nsys, event tables ({@code CUPTI_ACTIVITY_KIND_*}, {@code NVTX_EVENTS}, ...) are created only when
 * their first row arrives, so a capture without memsets has no memset table. Row methods take primitives:
 * no object is allocated per kernel launch.
 */
public final class NsysDbWriter implements AutoCloseable {
    /** Tables nsys creates only when the capture produced such events. */
    private static final Set<String> LAZY = Set.of("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
            "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
            "CUPTI_ACTIVITY_KIND_CUDA_EVENT", "NVTX_EVENTS", "PROFILER_OVERHEAD", "ProcessStreams");
    private static final int BATCH = 4096;

    /** {@code 1 << 48}: the VM/host id nsys puts in bits 48+ of every global id of a local capture. */
    public static final long LOCAL_VM = 1L << 48;

    public static long globalPid(int pid) {
        return LOCAL_VM | ((long) pid << 24);
    }

    public static long globalTid(int pid, int tid) {
        return globalPid(pid) | (tid & 0xFFFFFFL);
    }

    /** Static attributes of a kernel function (one object per distinct kernel, not per launch). */
    public record KernelShape(long demangledId, long shortId, long mangledId, int registers, int gridX,
                              int gridY, int gridZ, int blockX, int blockY, int blockZ,
                              int staticSharedMemory, int dynamicSharedMemory) {
    }

    private final NsysSchema schema;
    private final Path target;
    private final Path temp;
    private final Connection conn;
    private final Map<String, String> ddl;
    private final Map<String, Table> tables = new LinkedHashMap<>();
    private final Map<String, Long> strings = new HashMap<>();
    private final Set<String> created = new HashSet<>();
    private long nextStringId;
    private boolean closed;

    private final Table kernel;
    private final Table runtime;
    private final Table nvtx;
    private final Table memcpy;
    private final Table memset;
    private final Table sync;

    /** Creates {@code target} (replacing it on {@link #close()}); the file is written beside it first. */
    public NsysDbWriter(Path target, NsysSchema schema) throws IOException {
        this.schema = schema;
        this.target = target.toAbsolutePath();
        Path dir = this.target.getParent();
        Files.createDirectories(dir);
        this.temp = Files.createTempFile(dir, "." + this.target.getFileName() + ".", ".tmp");
        this.ddl = schema.tables();
        try {
            conn = DriverManager.getConnection("jdbc:sqlite:" + temp);
            try (Statement st = conn.createStatement()) {
                st.execute("PRAGMA journal_mode=OFF");
                st.execute("PRAGMA synchronous=OFF");
                st.execute("PRAGMA locking_mode=EXCLUSIVE");
                st.execute("PRAGMA cache_size=-65536");
            }
            conn.setAutoCommit(false);
            try (Statement st = conn.createStatement()) {
                for (Map.Entry<String, String> e : ddl.entrySet()) {
                    if (!LAZY.contains(e.getKey())) st.execute(e.getValue());
                }
                for (String row : schema.enumRows()) st.execute(row);
            }
        } catch (SQLException e) {
            deleteQuietly();
            throw new IOException("cannot create " + temp + ": " + e.getMessage(), e);
        }
        kernel = table("CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "deviceId", "contextId", "streamId",
                "correlationId", "globalPid", "demangledName", "shortName", "mangledName", "launchType",
                "cacheConfig", "registersPerThread", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
                "staticSharedMemory", "dynamicSharedMemory", "localMemoryPerThread", "localMemoryTotal",
                "gridId", "sharedMemoryExecuted", "sharedMemoryLimitConfig");
        runtime = table("CUPTI_ACTIVITY_KIND_RUNTIME", "start", "end", "eventClass", "globalTid",
                "correlationId", "nameId", "returnValue");
        nvtx = table("NVTX_EVENTS", "start", "end", "eventType", "rangeId", "text", "globalTid",
                "endGlobalTid", "textId", "domainId");
        memcpy = table("CUPTI_ACTIVITY_KIND_MEMCPY", "start", "end", "deviceId", "contextId", "streamId",
                "correlationId", "globalPid", "bytes", "copyKind", "srcKind", "dstKind");
        memset = table("CUPTI_ACTIVITY_KIND_MEMSET", "start", "end", "deviceId", "contextId", "streamId",
                "correlationId", "globalPid", "value", "bytes", "memKind");
        sync = table("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "start", "end", "deviceId", "contextId",
                "streamId", "correlationId", "globalPid", "syncType", "eventId");
        // nsys's first strings; keeps id 0 (which some readers mistake for NULL) away from real names.
        string("QnxKernelTrace");
        string("GpuMetrics");
    }

    public NsysSchema schema() {
        return schema;
    }

    /** The {@code StringIds} id of a string, adding it on first use. */
    public long string(String value) {
        Long id = strings.get(value);
        if (id != null) return id;
        long nid = nextStringId++;
        strings.put(value, nid);
        row("StringIds", "id", "value").values(nid, value);
        return nid;
    }

    public KernelShape kernelShape(String shortName, String demangledName, String mangledName, int registers,
                                   int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
                                   int staticSharedMemory, int dynamicSharedMemory) {
        return new KernelShape(string(demangledName), string(shortName),
                mangledName == null ? -1 : string(mangledName), registers, gridX, gridY, gridZ, blockX, blockY,
                blockZ, staticSharedMemory, dynamicSharedMemory);
    }

    public void kernel(long start, long end, int deviceId, int contextId, int streamId, long correlationId,
                       long globalPid, KernelShape k, long gridId) throws IOException {
        try {
            PreparedStatement ps = kernel.ps();
            gpuActivity(ps, start, end, deviceId, contextId, streamId, correlationId, globalPid);
            ps.setLong(8, k.demangledId());
            ps.setLong(9, k.shortId());
            if (k.mangledId() < 0) ps.setNull(10, Types.INTEGER); else ps.setLong(10, k.mangledId());
            ps.setInt(11, 1);  // launchType: regular
            ps.setInt(12, 0);  // cacheConfig: no preference
            ps.setInt(13, k.registers());
            ps.setInt(14, k.gridX());
            ps.setInt(15, k.gridY());
            ps.setInt(16, k.gridZ());
            ps.setInt(17, k.blockX());
            ps.setInt(18, k.blockY());
            ps.setInt(19, k.blockZ());
            ps.setInt(20, k.staticSharedMemory());
            ps.setInt(21, k.dynamicSharedMemory());
            ps.setInt(22, 0);
            ps.setInt(23, 0);
            ps.setLong(24, gridId);
            ps.setInt(25, k.staticSharedMemory() + k.dynamicSharedMemory() > 49152 ? 102400 : 49152);
            ps.setInt(26, 0);
            kernel.added();
        } catch (SQLException e) {
            throw io(e);
        }
    }

    /** A CUDA runtime ({@code eventClass} 0) or driver (1) API call. */
    public void runtime(long start, long end, int eventClass, long globalTid, long correlationId, long nameId)
            throws IOException {
        try {
            PreparedStatement ps = runtime.ps();
            ps.setLong(1, start);
            ps.setLong(2, end);
            ps.setInt(3, eventClass);
            ps.setLong(4, globalTid);
            ps.setLong(5, correlationId);
            ps.setLong(6, nameId);
            ps.setInt(7, 0);
            runtime.added();
        } catch (SQLException e) {
            throw io(e);
        }
    }

    /**
     * One {@code NVTX_EVENTS} row. {@code end < 0} writes NULL (marks, unclosed ranges); {@code textId < 0}
     * writes the message as {@code text}, otherwise as a registered string.
     */
    public void nvtx(long start, long end, int eventType, long rangeId, String text, long globalTid,
                     long endGlobalTid, long textId, int domainId) throws IOException {
        try {
            PreparedStatement ps = nvtx.ps();
            ps.setLong(1, start);
            if (end < 0) ps.setNull(2, Types.INTEGER); else ps.setLong(2, end);
            ps.setInt(3, eventType);
            if (rangeId < 0) ps.setNull(4, Types.INTEGER); else ps.setLong(4, rangeId);
            if (text == null) ps.setNull(5, Types.VARCHAR); else ps.setString(5, text);
            ps.setLong(6, globalTid);
            if (endGlobalTid < 0) ps.setNull(7, Types.INTEGER); else ps.setLong(7, endGlobalTid);
            if (textId < 0) ps.setNull(8, Types.INTEGER); else ps.setLong(8, textId);
            ps.setInt(9, domainId);
            nvtx.added();
        } catch (SQLException e) {
            throw io(e);
        }
    }

    /** The first seven columns every CUPTI GPU-activity table shares, in nsys's column order. */
    private static void gpuActivity(PreparedStatement ps, long start, long end, int deviceId, int contextId,
                                    int streamId, long correlationId, long globalPid) throws SQLException {
        ps.setLong(1, start);
        ps.setLong(2, end);
        ps.setInt(3, deviceId);
        ps.setInt(4, contextId);
        ps.setInt(5, streamId);
        ps.setLong(6, correlationId);
        ps.setLong(7, globalPid);
    }

    public void memcpy(long start, long end, int deviceId, int contextId, int streamId, long correlationId,
                       long globalPid, long bytes, int copyKind, int srcKind, int dstKind) throws IOException {
        try {
            PreparedStatement ps = memcpy.ps();
            gpuActivity(ps, start, end, deviceId, contextId, streamId, correlationId, globalPid);
            ps.setLong(8, bytes);
            ps.setInt(9, copyKind);
            ps.setInt(10, srcKind);
            ps.setInt(11, dstKind);
            memcpy.added();
        } catch (SQLException e) {
            throw io(e);
        }
    }

    public void memset(long start, long end, int deviceId, int contextId, int streamId, long correlationId,
                       long globalPid, int value, long bytes, int memKind) throws IOException {
        try {
            PreparedStatement ps = memset.ps();
            gpuActivity(ps, start, end, deviceId, contextId, streamId, correlationId, globalPid);
            ps.setInt(8, value);
            ps.setLong(9, bytes);
            ps.setInt(10, memKind);
            memset.added();
        } catch (SQLException e) {
            throw io(e);
        }
    }

    public void synchronization(long start, long end, int deviceId, int contextId, int streamId,
                                long correlationId, long globalPid, int syncType) throws IOException {
        try {
            PreparedStatement ps = sync.ps();
            gpuActivity(ps, start, end, deviceId, contextId, streamId, correlationId, globalPid);
            ps.setInt(8, syncType);
            ps.setLong(9, 4294967295L); // no event (as observed for stream/context syncs)
            sync.added();
        } catch (SQLException e) {
            throw io(e);
        }
    }

    /** A row of a small table (metadata, GPUs, threads): {@code row("PROCESSES", "pid", "name").values(1, "x")}. */
    public RowBuilder row(String table, String... columns) {
        return new RowBuilder(table(table, columns));
    }

    /** Inserts into a small table by column name. */
    public final class RowBuilder {
        private final Table t;

        private RowBuilder(Table t) {
            this.t = t;
        }

        public void values(Object... values) {
            try {
                PreparedStatement ps = t.ps();
                for (int i = 0; i < values.length; i++) ps.setObject(i + 1, values[i]);
                t.added();
            } catch (SQLException e) {
                throw new IllegalStateException("cannot write " + t.name + ": " + e.getMessage(), e);
            }
        }
    }

    /** Flushes, commits and moves the file into place. */
    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        try {
            for (Table t : tables.values()) t.flush();
            conn.commit();
            for (Table t : tables.values()) t.closeStatement();
            conn.close();
            makeWorldReadable(temp);
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (SQLException e) {
            abort();
            throw io(e);
        } catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
    }

    /** Drops the partial file (on error). */
    public void abort() {
        closed = true;
        try {
            conn.close();
        } catch (SQLException ignored) {
            // the temporary file is deleted below either way
        }
        deleteQuietly();
    }

    /** createTempFile makes the file 0600; a profile is an ordinary document (0644). */
    private static void makeWorldReadable(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: keep the default permissions
        }
    }

    private void deleteQuietly() {
        try {
            Files.deleteIfExists(temp);
        } catch (IOException ignored) {
            // best effort: a stale hidden .tmp file is harmless
        }
    }

    private Table table(String name, String... columns) {
        String key = name + "|" + String.join(",", columns);
        return tables.computeIfAbsent(key, k -> new Table(name, columns));
    }

    private static IOException io(SQLException e) {
        return new IOException("SQLite: " + e.getMessage(), e);
    }

    /** One insert statement (table + column list), its batch and its lazily created table. */
    private final class Table {
        final String name;
        final String insert;
        PreparedStatement ps;
        int pending;
        long rows;

        Table(String name, String[] columns) {
            this.name = name;
            this.insert = "INSERT INTO " + name + " (" + String.join(", ", columns) + ") VALUES ("
                    + "?, ".repeat(columns.length - 1) + "?)";
        }

        PreparedStatement ps() throws SQLException {
            if (ps == null) {
                if (LAZY.contains(name) && created.add(name)) {
                    String create = ddl.get(name);
                    if (create == null) throw new SQLException("schema " + schema + " has no table " + name);
                    try (Statement st = conn.createStatement()) {
                        st.execute(create);
                    }
                }
                ps = conn.prepareStatement(insert);
            }
            return ps;
        }

        void added() throws SQLException {
            ps.addBatch();
            rows++;
            if (++pending >= BATCH) flush();
        }

        void flush() throws SQLException {
            if (ps != null && pending > 0) {
                ps.executeBatch();
                pending = 0;
            }
        }

        void closeStatement() throws SQLException {
            if (ps != null) ps.close();
        }
    }
}
