package dlproflint.extract.nsys;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Writes small nsys-schema databases for reader tests (tables and columns as nsys 2022–2025 export them).
 * Each "step" is an NVTX push/pop range around one cudaLaunchKernel whose kernel runs on device 0.
 */
final class SyntheticNsys implements AutoCloseable {
    static final long TID = (1L << 48) | (1234L << 24) | 1234L;
    static final long PID = (1L << 48) | (1234L << 24);
    final Connection c;

    SyntheticNsys(Path file) throws SQLException {
        c = DriverManager.getConnection("jdbc:sqlite:" + file);
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)");
            st.execute("CREATE TABLE EXPORT_META_DATA (name TEXT, value TEXT)");
            st.execute("INSERT INTO EXPORT_META_DATA VALUES ('EXPORT_PRODUCT_VERSION', '2023.2.3'), ('EXPORT_SCHEMA_VERSION', '3.1.7')");
            st.execute("CREATE TABLE TARGET_INFO_GPU (vmId INTEGER, id INTEGER, name TEXT, totalMemory INTEGER, smCount INTEGER,"
                    + " computeMajor INTEGER, computeMinor INTEGER)");
            st.execute("INSERT INTO TARGET_INFO_GPU VALUES (0, 0, 'Synthetic A100', 42949672960, 108, 8, 0),"
                    + " (0, 1, 'Synthetic A100', 42949672960, 108, 8, 0)");
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER,"
                    + " globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER, callchainId INTEGER)");
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER,"
                    + " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,"
                    + " shortName INTEGER, mangledName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER,"
                    + " blockY INTEGER, blockZ INTEGER)");
            st.execute("CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,"
                    + " category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,"
                    + " domainId INTEGER)");
            st.execute("INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'volta_sgemm_128x64_nn'),"
                    + " (3, 'void volta_sgemm_128x64_nn(float*)'), (4, 'ampere_h16816gemm_256x128_ldg8_stages_64x3_nn'),"
                    + " (5, 'cudaDeviceSynchronize_v3020')");
        }
    }

    /** n steps of 1 µs each, every 10th range named {@code step} (a key node) and every 3rd kernel a tensor-core one. */
    void steps(int n) throws SQLException {
        try (PreparedStatement nv = c.prepareStatement("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId)"
                + " VALUES (?, ?, 59, ?, ?, 0)");
             PreparedStatement rt = c.prepareStatement("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid,"
                     + " correlationId, nameId) VALUES (?, ?, 0, ?, ?, 1)");
             PreparedStatement k = c.prepareStatement("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId,"
                     + " streamId, correlationId, globalPid, demangledName, shortName, gridX, gridY, gridZ, blockX, blockY, blockZ)"
                     + " VALUES (?, ?, 0, 1, 7, ?, ?, ?, ?, 8, 1, 1, 128, 1, 1)")) {
            for (int i = 0; i < n; i++) {
                long t = 1_000_000L + i * 1000L;
                nv.setLong(1, t);
                nv.setLong(2, t + 900);
                nv.setString(3, i % 10 == 9 ? "step" : "layer_" + (i % 10));
                nv.setLong(4, TID);
                nv.addBatch();
                rt.setLong(1, t + 100);
                rt.setLong(2, t + 300);
                rt.setLong(3, TID);
                rt.setLong(4, i + 1);
                rt.addBatch();
                k.setLong(1, t + 400);
                k.setLong(2, t + 800);
                k.setLong(3, i + 1);
                k.setLong(4, PID);
                boolean tc = i % 3 == 0;
                k.setLong(5, tc ? 4 : 3);
                k.setLong(6, tc ? 4 : 2);
                k.addBatch();
                if (i % 10_000 == 9_999) {
                    nv.executeBatch();
                    rt.executeBatch();
                    k.executeBatch();
                }
            }
            nv.executeBatch();
            rt.executeBatch();
            k.executeBatch();
        }
    }

    void sql(String s) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(s);
        }
    }

    @Override
    public void close() throws SQLException {
        c.commit();
        c.close();
    }
}
