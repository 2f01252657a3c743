package dlproflint.spark;

import dlproflint.cli.RankReader;
import dlproflint.cli.RankSpec;
import dlproflint.findings.OneLine;
import dlproflint.job.JobRoster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.broadcast.Broadcast;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;

/**
 * One rank, on an executor: the profile as the user named it is opened through its Hadoop filesystem (a
 * scheme-less path relative to the driver's working directory when it is local), copied to a local temporary
 * file unless the filesystem is local, read and linted by the executor's {@link RankReader} (one per JVM, for
 * every task of the same spec), and its summary returned. A copy is deleted as soon as the rank is read.
 */
final class RankTask implements Function<String, JobRoster.Read> {
    private static final long serialVersionUID = 1L;

    private final Broadcast<RankSpec> spec;
    private final String driverCwd;

    RankTask(Broadcast<RankSpec> spec, String driverCwd) {
        this.spec = spec;
        this.driverCwd = driverCwd;
    }

    @Override
    public JobRoster.Read call(String given) {
        RankReader reader = RankReader.of(spec.value());
        java.nio.file.Path local = null;
        java.nio.file.Path copy = null;
        try {
            if (!HadoopInputs.hasScheme(given)) {
                local = java.nio.file.Path.of(driverCwd).resolve(given).normalize();
            } else {
                Path p = new Path(given);
                FileSystem fs = p.getFileSystem(new Configuration());
                if (fs instanceof LocalFileSystem) {
                    local = java.nio.file.Path.of(p.toUri());
                } else {
                    java.nio.file.Path dir = Files.createTempDirectory("dlprof-lint-rank");
                    copy = dir.resolve(p.getName());
                    try (InputStream in = fs.open(p)) {
                        Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
                    }
                    local = copy;
                }
            }
            return reader.read(given, local);
        } catch (IOException | RuntimeException e) {
            if (e instanceof IllegalStateException ise && String.valueOf(ise.getMessage()).startsWith("rule packs")) throw ise;
            return JobRoster.Read.failed(given, "cannot read: " + OneLine.of(e));
        } finally {
            if (copy != null) {
                try {
                    Files.deleteIfExists(copy);
                    Files.deleteIfExists(copy.getParent());
                } catch (IOException ignored) {
                    // a temporary file the executor's clean-up removes
                }
            }
        }
    }
}
