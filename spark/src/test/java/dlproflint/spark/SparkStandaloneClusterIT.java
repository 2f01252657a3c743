package dlproflint.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.cli.CliEnv;
import dlproflint.cli.Main;
import dlproflint.synth.KinetoJobGenerator;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 28 item 7: {@code dlprof-lint-spark} on a real Spark standalone cluster, under a fault. A master and two
 * workers (1 core and 768 MB each) are started on localhost from the Spark jars the build resolved
 * ({@code target/spark-runtime}, laid out as a Spark home's {@code jars/}: no Spark download, no network); the
 * application jar is submitted to them by a driver process with a generated 200-rank job; once both executors run
 * tasks, one worker is killed by its process id (SIGKILL), its executor with it. Spark reschedules the lost tasks on
 * the other worker, and the report must equal the one {@code dlprof-lint job} writes in one process.
 *
 * <p>Runs after packaging (it needs the shaded application jar): the spark module's {@code cluster-tests}
 * execution, in {@code mvn verify}. Wall times are printed as {@code spark cluster:} lines (docs/scale-out.md).
 */
@Timeout(value = 900, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SparkStandaloneClusterIT {
    private static final int RANKS = 200;
    private static final String OPENS = String.join(" ",
            "-XX:+IgnoreUnrecognizedVMOptions", "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED", "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED", "-Djdk.reflect.useDirectMethodHandle=false",
            "-Dio.netty.tryReflectionSetAccessible=true");

    @TempDir
    Path dir;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopCluster() throws InterruptedException {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : started) p.waitFor(30, TimeUnit.SECONDS);
        // the killed worker's executor lost its parent: found by its work folder on its command line
        String mine = dir.toString();
        ProcessHandle.allProcesses().filter(h -> h.info().commandLine().map(c -> c.contains(mine)).orElse(false))
                .forEach(ProcessHandle::destroyForcibly);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private Process start(String name, Path sparkHome, List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile());
        pb.environment().put("SPARK_HOME", sparkHome.toString());
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private static List<String> daemon(Path runtime, String mainClass, String... args) {
        List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx256m"));
        cmd.addAll(List.of(OPENS.split(" ")));
        cmd.addAll(List.of("-cp", runtime + "/*", mainClass));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static void awaitLog(Path log, String text, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log, StandardCharsets.ISO_8859_1).contains(text)) return;
            Thread.sleep(200);
        }
        throw new AssertionError(log + " never said '" + text + "':\n" + (Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "(no log)"));
    }

    /** How many tasks the executor under a worker's work dir ({@code app-*}/{@code <id>}/stderr) has started. */
    private static long tasksStarted(Path workDir) throws IOException {
        if (!Files.isDirectory(workDir)) return 0;
        try (Stream<Path> s = Files.walk(workDir, 3)) {
            long n = 0;
            for (Path p : s.filter(p -> p.getFileName().toString().equals("stderr")).toList()) {
                n += Files.readString(p, StandardCharsets.ISO_8859_1).lines().filter(l -> l.contains("Running task")).count();
            }
            return n;
        }
    }

    @Test
    void aJobSurvivesALostWorkerAndWritesTheSameReportAsJob() throws Exception {
        String appJar = System.getProperty("dlproflint.spark.appJar");
        String runtimeDir = System.getProperty("dlproflint.spark.runtime");
        assumeTrue(appJar != null && runtimeDir != null, "runs after packaging (the spark module's cluster-tests execution)");
        Path runtime = Path.of(runtimeDir);
        assertTrue(Files.isRegularFile(Path.of(appJar)), "the application jar is built: " + appJar);
        // a Spark home is a folder whose jars/ hold Spark: the build's copy of the provided dependencies
        Path sparkHome = Files.createDirectories(dir.resolve("spark-home"));
        Files.createSymbolicLink(sparkHome.resolve("jars"), runtime);

        Path job = dir.resolve("job");
        KinetoJobGenerator.write(Corpus.file("hta/tests/data/trace_filter/sampled_rank-0.json.gz"), job,
                KinetoJobGenerator.Spec.of(RANKS).withStraggler(137, 25));

        // the reference: dlprof-lint job in this process
        long t0 = System.nanoTime();
        ByteArrayOutputStream localErr = new ByteArrayOutputStream();
        int local = Main.run(new CliEnv(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(localErr, true, StandardCharsets.UTF_8), dir, Map.of(), false, LocalDate::now),
                "job", "job/", "--report", "json=local.json", "--no-config", "-j", "2");
        double jobSeconds = (System.nanoTime() - t0) / 1e9;

        int masterPort = freePort();
        String master = "spark://127.0.0.1:" + masterPort;
        long c0 = System.nanoTime();
        start("master", sparkHome, daemon(runtime, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                "--port", Integer.toString(masterPort), "--webui-port", Integer.toString(freePort())));
        awaitLog(dir.resolve("master.log"), "I have been elected leader", 120);
        List<Process> workers = new ArrayList<>();
        for (int w = 1; w <= 2; w++) {
            workers.add(start("worker" + w, sparkHome, daemon(runtime, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                    "--cores", "1", "--memory", "768m", "--webui-port", Integer.toString(freePort()),
                    "--work-dir", dir.resolve("work" + w).toString(), master)));
        }
        for (int w = 1; w <= 2; w++) awaitLog(dir.resolve("worker" + w + ".log"), "Successfully registered with master", 120);

        List<String> driver = new ArrayList<>(List.of(java(), "-Xmx512m"));
        driver.addAll(List.of(OPENS.split(" ")));
        driver.addAll(List.of("-Dspark.master=" + master, "-Dspark.app.name=dlprof-lint cluster test",
                "-Dspark.driver.host=127.0.0.1", "-Dspark.driver.bindAddress=127.0.0.1", "-Dspark.ui.enabled=false",
                "-Dspark.jars=" + appJar, "-Dspark.executor.memory=512m", "-Dspark.executor.cores=1", "-Dspark.cores.max=2",
                "-Dspark.executor.extraJavaOptions=" + OPENS, "-Dspark.task.maxFailures=8",
                "-cp", runtime + "/*:" + appJar, "dlproflint.spark.SparkJobMain",
                "job/", "--report", "json=cluster.json", "--no-config"));
        Process d = start("driver", sparkHome, driver);

        // once both executors run tasks (each has started a few), one worker dies mid-job
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        while (!(tasksStarted(dir.resolve("work1")) >= 3 && tasksStarted(dir.resolve("work2")) >= 3)
                && System.nanoTime() < deadline && d.isAlive()) {
            Thread.sleep(100);
        }
        long before = tasksStarted(dir.resolve("work2"));
        assertTrue(before >= 3, "the second worker's executor ran tasks: " + before);
        assertTrue(d.isAlive(), "the job is still running when the worker is killed");
        Process victim = workers.get(1);
        long victimPid = victim.pid();
        assertEquals(0, new ProcessBuilder("kill", "-KILL", Long.toString(victimPid)).start().waitFor());
        assertTrue(victim.waitFor(30, TimeUnit.SECONDS), "worker " + victimPid + " is gone");

        assertTrue(d.waitFor(600, TimeUnit.SECONDS), "the job completes on the remaining worker");
        double clusterSeconds = (System.nanoTime() - c0) / 1e9;
        String driverLog = Files.readString(dir.resolve("driver.log"), StandardCharsets.ISO_8859_1);
        assertEquals(local, d.exitValue(), "the exit code of job\n--- driver\n" + driverLog + "\n--- local\n" + localErr);
        JsonNode a = new ObjectMapper().readTree(dir.resolve("local.json").toFile());
        JsonNode b = new ObjectMapper().readTree(dir.resolve("cluster.json").toFile());
        assertEquals(a, b, "the same report from the cluster as from the command");
        assertEquals(RANKS, b.path("job").path("ranksRead").asInt());
        assertTrue(b.path("profiles").get(0).path("findings").toString().contains("\"ref\":\"rank:137\""), "the straggler is named");
        long afterwards = tasksStarted(dir.resolve("work1"));
        // every rank ran somewhere; tasks that were running on the lost executor ran again on the other one
        assertTrue(afterwards + before >= RANKS, before + " tasks on the lost worker, " + afterwards + " on the other, " + RANKS + " ranks");
        System.out.printf(java.util.Locale.ROOT, "spark cluster: %d ranks, job in one process %.1f s, standalone cluster (master,"
                + " 2 workers of 1 core, one killed mid-job after %d of its tasks; %d tasks started in all) %.1f s including start-up%n",
                RANKS, jobSeconds, before, before + afterwards, clusterSeconds);
    }
}
