package dlproflint.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one command under {@code /usr/bin/time} and returns what the whole process cost: wall time, CPU
 * time and the peak resident set (Java heap, native memory, SQLite's page cache and sort buffers alike).
 */
final class Proc {
    /** One measured run. {@code maxRssKb} is the largest RSS of the process (GNU time's {@code %M}). */
    record Run(double wallS, double userS, double sysS, long maxRssKb, int exit, String output) {
        double cpuS() {
            return userS + sysS;
        }

        double rssMb() {
            return maxRssKb / 1024.0;
        }
    }

    private Proc() {
    }

    static Run time(Path cwd, Map<String, String> env, List<String> command) throws IOException, InterruptedException {
        Path times = Files.createTempFile("dlprof-lint-bench", ".time");
        Path out = Files.createTempFile("dlprof-lint-bench", ".out");
        try {
            List<String> cmd = new ArrayList<>(List.of("/usr/bin/time", "-f", "%e %U %S %M", "-o", times.toString()));
            cmd.addAll(command);
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(30, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", command));
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);
            String[] lines = Files.readString(times, StandardCharsets.UTF_8).strip().split("\n");
            // GNU time writes "Command exited with non-zero status N" before the figures
            String[] f = lines[lines.length - 1].trim().split(" ");
            return new Run(Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]),
                    Long.parseLong(f[3]), p.exitValue(), output);
        } finally {
            Files.deleteIfExists(times);
            Files.deleteIfExists(out);
        }
    }

    /** Runs a command, failing with its output when it exits non-zero (setup steps, not measurements). */
    static String check(Path cwd, List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " exited " + p.exitValue() + ": " + tail(output));
        }
        return output;
    }

    static String tail(String s) {
        String t = s.strip();
        return t.length() > 600 ? "..." + t.substring(t.length() - 600) : t;
    }

    /** The runs' median, min and max of one figure. */
    record Spread(double median, double min, double max) {
        static Spread of(List<Double> values) {
            List<Double> v = new ArrayList<>(values);
            v.sort(Double::compare);
            int n = v.size();
            double med = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
            return new Spread(med, v.get(0), v.get(n - 1));
        }

        String seconds() {
            return min == max ? String.format(Locale.ROOT, "%.2f s", median)
                    : String.format(Locale.ROOT, "%.2f s (%.2f–%.2f)", median, min, max);
        }
    }
}
