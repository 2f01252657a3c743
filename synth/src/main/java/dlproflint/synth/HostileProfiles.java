package dlproflint.synth;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.zip.GZIPOutputStream;

/**
 * The inputs of the third hostile-input campaign (issue 28) that a test must build rather than commit: nsys exports
 * whose counts are absurd for their size (GPUs, nested NVTX ranges), a WAL-mode export whose kernels are only in its
 * {@code -wal} file, Kineto traces of many tiny steps, of many distinct kernel names, or of ranks claiming absurd world
 * sizes. Every one is small on disk (a few MB at most) and made in seconds; the CLI tests and the {@code hostile}
 * group's resource measurements share them. {@code main} writes them all to a folder for measuring by hand.
 */
public final class HostileProfiles {
    private HostileProfiles() {
    }

    /** A small healthy nsys 2025 export: {@code steps} ProfilerStep ranges of a few kernels each. */
    public static Path smallNsys(Path file, int steps) throws IOException {
        try (SyntheticProfile p = SyntheticProfile.options().seed(28).gpus(GpuModel.A100_SXM4_40GB, 1).open(file)) {
            for (int s = 0; s < steps; s++) {
                p.push("ProfilerStep#" + (s + 1));
                p.push("aten::conv2d").kernel("ampere_sgemm_128x64_nn", 200_000).pop();
                p.push("aten::relu").kernel("void at::native::vectorized_elementwise_kernel<4, relu>", 20_000).pop();
                p.cpu(50_000);
                p.pop();
            }
        }
        return file;
    }

    /** {@code kernels} kernels, each on its own device id (0..kernels-1): a GPU count absurd for the file's size. */
    public static Path kernelsOnDistinctDevices(Path file, int kernels) throws IOException, SQLException {
        try (SyntheticProfile p = SyntheticProfile.options().seed(28).gpus(GpuModel.A100_SXM4_40GB, 1).open(file)) {
            for (int k = 0; k < kernels; k++) p.kernel("k", 2_000);
        }
        sql(file, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = rowid - 1");
        return file;
    }

    /** A small export with {@code depth} strictly nested NVTX push/pop ranges on its main thread. */
    public static Path nestedNvtx(Path file, int depth) throws IOException, SQLException {
        smallNsys(file, 3);
        sql(file, "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) "
                + "WITH RECURSIVE d(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM d WHERE i < " + (depth - 1) + ") "
                + "SELECT 5000000000 + i * 10, 5000000000 + " + (20L * depth) + " - i * 10, 59, 'nest', "
                + "(SELECT globalTid FROM NVTX_EVENTS LIMIT 1) FROM d");
        return file;
    }

    /**
     * An export in WAL mode whose kernels are committed only to its {@code -wal} file: copied while the writer still
     * holds the database open, as a profile copied during (or after a crash of) a run that wrote it. {@code sqlite3}
     * sees the kernels; a reader that ignores the WAL sees none.
     */
    public static Path walOnlyKernels(Path file, int steps) throws IOException, SQLException {
        Path base = file.resolveSibling(file.getFileName() + ".base");
        smallNsys(base, steps);
        Path work = file.resolveSibling(file.getFileName() + ".work");
        Files.copy(base, work, StandardCopyOption.REPLACE_EXISTING);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + work); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE kept AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL");
            st.execute("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL");
            st.execute("PRAGMA journal_mode = WAL");
            st.execute("PRAGMA wal_autocheckpoint = 0");
            st.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM kept");
            // the main file has no kernels; the WAL has them, committed but not checkpointed
            Files.copy(work, file, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(work.resolveSibling(work.getFileName() + "-wal"), file.resolveSibling(file.getFileName() + "-wal"),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        Files.deleteIfExists(base);
        Files.deleteIfExists(work);
        Files.deleteIfExists(work.resolveSibling(work.getFileName() + "-wal"));
        Files.deleteIfExists(work.resolveSibling(work.getFileName() + "-shm"));
        return file;
    }

    /** A gzipped Kineto trace of {@code steps} {@code ProfilerStep#N} ranges of 9 µs, one short kernel in each. */
    public static Path tinySteps(Path file, int steps) throws IOException {
        return HostileTraces.gzipEvents(file, "{\"schemaVersion\": 1, \"traceEvents\": [", steps, i -> {
            long ts = 1_000 + i * 10;
            return "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#" + i + "\",\"pid\":1,\"tid\":1,\"ts\":" + ts
                    + ",\"dur\":9},{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":" + (ts + 1)
                    + ",\"dur\":3,\"args\":{\"device\":0,\"stream\":7}}";
        }, "]}");
    }

    /** A gzipped Kineto trace of {@code kernels} kernels, each with its own name ({@code prefix} and a number). */
    public static Path distinctKernelNames(Path file, int kernels, String prefix) throws IOException {
        return HostileTraces.gzipEvents(file, "{\"schemaVersion\": 1, \"traceEvents\": [", kernels,
                i -> "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" + prefix + i + "\",\"pid\":0,\"tid\":7,\"ts\":" + (1_000 + i * 5)
                        + ",\"dur\":3,\"args\":{\"device\":0,\"stream\":7}}", "]}");
    }

    /**
     * A small Kineto trace of one rank of a distributed job whose {@code distributedInfo} says {@code rank} and
     * {@code worldSize}, both written as given (JSON text: {@code 5}, {@code -5}, {@code "zero"}, {@code 1e300}).
     */
    public static Path rankTrace(Path file, String rank, String worldSize) throws IOException {
        StringBuilder events = new StringBuilder();
        for (int s = 0; s < 4; s++) {
            long ts = 1_000 + s * 1_000L;
            if (s > 0) events.append(',');
            events.append("{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#").append(s + 1)
                    .append("\",\"pid\":1,\"tid\":1,\"ts\":").append(ts).append(",\"dur\":900},")
                    .append("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)\",")
                    .append("\"pid\":0,\"tid\":7,\"ts\":").append(ts + 100).append(",\"dur\":300,\"args\":{\"device\":0,\"stream\":7}},")
                    .append("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ampere_sgemm_128x64_nn\",\"pid\":0,\"tid\":7,\"ts\":")
                    .append(ts + 450).append(",\"dur\":300,\"args\":{\"device\":0,\"stream\":7}}");
        }
        String json = "{\"schemaVersion\": 1, \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " + rank
                + ", \"world_size\": " + worldSize + "}, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA A100-SXM4-40GB\"}],"
                + " \"traceEvents\": [" + events + "]}";
        return Files.writeString(file, json);
    }

    /** A plain-JSON Kineto trace whose one kernel lasts {@code NaN} µs (Python's json module writes NaN and Infinity). */
    public static Path nanTrace(Path file) throws IOException {
        return Files.writeString(file, "{\"traceEvents\": [{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,"
                + "\"ts\":1000,\"dur\":NaN,\"args\":{\"device\":0}}]}");
    }

    /**
     * A {@code .dlprof-lint.yml} of one comment line of {@code commentBytes} bytes followed by valid content: a
     * configuration parser that is slow on long lines (or reads without bound) shows here.
     */
    public static Path longCommentConfig(Path file, int commentBytes) throws IOException {
        try (OutputStream out = Files.newOutputStream(file);
             Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16)) {
            w.write('#');
            for (int i = 1; i < commentBytes; i++) w.write('x');
            w.write("\npacks: {}\n");
        }
        return file;
    }

    /** Runs statements on {@code file} (a file this class made, never a user's profile). */
    static void sql(Path file, String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            for (String s : statements) st.execute(s);
        }
    }

    /** Writes every input into {@code args[0]} (created), for measuring the launcher by hand. */
    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args.length > 0 ? args[0] : "hostile-profiles"));
        kernelsOnDistinctDevices(dir.resolve("devices-100k.sqlite"), 100_000);
        nestedNvtx(dir.resolve("nested-300k.sqlite"), 300_000);
        walOnlyKernels(dir.resolve("wal-only.sqlite"), 20);
        tinySteps(dir.resolve("steps-200k.json.gz"), 200_000);
        distinctKernelNames(dir.resolve("names-a.json.gz"), 200_000, "kernel_a_");
        distinctKernelNames(dir.resolve("names-b.json.gz"), 200_000, "kernel_b_");
        Path job = Files.createDirectories(dir.resolve("job-world-max"));
        rankTrace(job.resolve("rank-0.json"), "0", Integer.toString(Integer.MAX_VALUE));
        rankTrace(job.resolve("rank-1.json"), "1", Integer.toString(Integer.MAX_VALUE));
        Path odd = Files.createDirectories(dir.resolve("job-odd"));
        rankTrace(odd.resolve("a.json"), "-5", "-1");
        rankTrace(odd.resolve("b.json"), "\"zero\"", "1e300");
        Path huge = Files.createDirectories(dir.resolve("job-50m"));
        rankTrace(huge.resolve("rank-0.json"), "0", "50000000");
        rankTrace(huge.resolve("rank-1.json"), "1", "50000000");
        nanTrace(dir.resolve("nan.json"));
        longCommentConfig(dir.resolve("long-comment.yml"), 10 << 20);
    }
}
