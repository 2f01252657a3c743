package dlproflint.extract.nsys;

import dlproflint.facts.GpuInfo;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.SystemInfo;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Versions, host and GPU descriptions from the export's metadata and TARGET_INFO tables. */
final class SystemScan {
    private SystemScan() {
    }

    /** EXPORT_META_DATA (≤2023.2) or META_DATA_EXPORT (≥2023.3), name → value; empty when neither exists. */
    static Map<String, String> exportMeta(NsysDatabase db) throws SQLException {
        Map<String, String> m = new HashMap<>();
        String table = db.has("META_DATA_EXPORT") ? "META_DATA_EXPORT" : db.has("EXPORT_META_DATA") ? "EXPORT_META_DATA" : null;
        if (table == null || !db.hasColumn(table, "name") || !db.hasColumn(table, "value")) return m;
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT name, value FROM " + table)) {
            while (rs.next()) m.put(rs.getString(1), rs.getString(2));
        }
        return m;
    }

    static ProfileInfo profileInfo(NsysDatabase db, String path, Map<String, String> meta, Map<String, String> dlprofSystem,
                                   long endNs) {
        String version = meta.get("EXPORT_PRODUCT_VERSION");
        if (dlprofSystem.get("nsysVersion") != null && !dlprofSystem.get("nsysVersion").isBlank()) {
            version = dlprofSystem.get("nsysVersion");
        }
        return new ProfileInfo(path, "nsys-sqlite", version, meta.get("EXPORT_SCHEMA_VERSION"), 0, endNs);
    }

    /** DLProf's own SystemInfo table (added to the nsys DB when DLProf analysed it). */
    static Map<String, String> dlprofSystemInfo(NsysDatabase db) throws SQLException {
        Map<String, String> m = new HashMap<>();
        if (!db.has("SystemInfo")) return m;
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM SystemInfo LIMIT 1")) {
            if (rs.next()) {
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    m.put(rs.getMetaData().getColumnName(i), rs.getString(i));
                }
            }
        }
        return m;
    }

    static Map<String, String> systemEnv(NsysDatabase db) throws SQLException {
        Map<String, String> m = new HashMap<>();
        if (!db.has("TARGET_INFO_SYSTEM_ENV") || !db.hasColumn("TARGET_INFO_SYSTEM_ENV", "name")) return m;
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT name, value FROM TARGET_INFO_SYSTEM_ENV")) {
            while (rs.next()) m.putIfAbsent(rs.getString(1), rs.getString(2));
        }
        return m;
    }

    static SystemInfo systemInfo(Map<String, String> env, Map<String, String> dl, String framework) {
        String cpu = blankToNull(dl.get("cpuModel"));
        if (cpu == null) cpu = blankToNull(env.get("CpuDescription"));
        String driver = blankToNull(dl.get("driverVersion"));
        if (driver == null) driver = driverVersion(env.get("NvDriverVersion"));
        String cuda = blankToNull(dl.get("cudaVersion"));
        if (cuda == null) cuda = cudaVersion(env.get("CudaDriverVersion"));
        String fw = framework;
        String fwVersion = null;
        String dlFw = blankToNull(dl.get("framework"));
        if (dlFw != null) {
            String[] parts = dlFw.trim().split("\\s+", 2);
            if (fw == null) fw = parts[0].toLowerCase(java.util.Locale.ROOT);
            if (parts.length > 1) fwVersion = parts[1];
        }
        return new SystemInfo(cpu, blankToNull(env.get("Hostname")), driver, cuda, blankToNull(dl.get("cudnnVersion")),
                fw, fwVersion, -1, 0);
    }

    /** nsys stores the driver as an integer in some versions: 5154304 → 515.43.04. */
    static String driverVersion(String raw) {
        if (raw == null || raw.isBlank()) return null;
        if (raw.matches("\\d{6,8}")) {
            long v = Long.parseLong(raw);
            return String.format("%d.%02d.%02d", v / 10000, (v / 100) % 100, v % 100);
        }
        return raw;
    }

    /** CUDA driver API version integer: 11070 → 11.7, 12020 → 12.2. */
    static String cudaVersion(String raw) {
        if (raw == null || raw.isBlank()) return null;
        if (raw.matches("\\d{4,6}")) {
            int v = Integer.parseInt(raw);
            return (v / 1000) + "." + ((v % 1000) / 10);
        }
        return raw;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /** Every GPU on the target, used or not: TARGET_INFO_GPU (≥2021.3.1) or TARGET_INFO_CUDA_GPU (2021.1–2021.3). */
    static List<GpuInfo> gpus(NsysDatabase db) throws SQLException {
        List<GpuInfo> out = new ArrayList<>();
        String sql;
        if (db.has("TARGET_INFO_GPU")) {
            String t = "TARGET_INFO_GPU";
            sql = "SELECT " + db.col(t, "id", "rowid - 1") + ", " + db.col(t, "name", "NULL") + ", "
                    + db.col(t, "smCount", "0") + ", " + db.col(t, "totalMemory", "0") + ", "
                    + db.col(t, "computeMajor", "0") + ", " + db.col(t, "computeMinor", "0") + " FROM " + t + " ORDER BY 1";
        } else if (db.has("TARGET_INFO_CUDA_GPU")) {
            String t = "TARGET_INFO_CUDA_GPU";
            sql = "SELECT " + db.col(t, "deviceId", "rowid - 1") + ", " + db.col(t, "name", "NULL") + ", "
                    + db.col(t, "numMultiprocessors", "0") + ", " + db.col(t, "totalMemory", "0") + ", "
                    + db.col(t, "computeCapabilityMajor", "0") + ", " + db.col(t, "computeCapabilityMinor", "0")
                    + " FROM " + t + " ORDER BY 1";
        } else {
            return out;
        }
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                int id = rs.getInt(1);
                if (!seen.add(id)) continue; // multi-VM captures repeat ids; one row per device id
                String name = rs.getString(2);
                out.add(new GpuInfo(id, name == null ? GpuInfo.UNKNOWN_NAME : name, rs.getInt(3), rs.getLong(4), rs.getInt(5),
                        rs.getInt(6), -1));
            }
        }
        return out;
    }
}
