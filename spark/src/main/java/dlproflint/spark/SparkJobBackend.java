package dlproflint.spark;

import dlproflint.cli.CliEnv;
import dlproflint.cli.CliException;
import dlproflint.cli.JobBackend;
import dlproflint.cli.RankReader;
import dlproflint.cli.RankSpec;
import dlproflint.job.JobRoster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads a job's ranks with Spark: one map task per rank (its profile opened through the Hadoop filesystem
 * of its URI, copied to an executor-local temporary file when it is not local already, since SQLite needs a
 * local file; read, linted and summarised there), the summaries collected to the driver. Inputs are expanded on
 * the driver ({@link HadoopInputs}); reports with a cluster URI ({@code hdfs:}, {@code s3a:}) are written
 * through its filesystem, other report paths locally on the driver.
 */
final class SparkJobBackend implements JobBackend {
    private final SparkSession spark;
    private int parallelism = 1;
    /** the working directory scheme-less inputs are relative to (the command's, set when they are expanded) */
    private String cwd = System.getProperty("user.dir");

    SparkJobBackend(SparkSession spark) {
        this.spark = spark;
    }

    @Override
    public String name() {
        return "spark";
    }

    @Override
    public List<String> expand(CliEnv env, List<String> inputs) throws CliException {
        cwd = env.cwd().toString();
        return HadoopInputs.expand(env, inputs, hadoop());
    }

    @Override
    public List<JobRoster.Read> readAll(List<String> profiles, Supplier<RankSpec> spec, RankReader local, int jobs) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        parallelism = jsc.defaultParallelism();
        Broadcast<RankSpec> shared = jsc.broadcast(spec.get());
        // one partition per rank: each rank's extraction is its own task, retried and scheduled on its own
        return jsc.parallelize(profiles, Math.max(1, profiles.size()))
                .map(new RankTask(shared, cwd))
                .collect();
    }

    @Override
    public boolean writesRemote(String path) {
        return HadoopInputs.isRemote(path);
    }

    @Override
    public void writeRemote(String path, byte[] content) throws IOException {
        Path p = new Path(URI.create(path));
        FileSystem fs = p.getFileSystem(hadoop());
        Path tmp = new Path(p.getParent(), "." + p.getName() + ".tmp");
        try (FSDataOutputStream out = fs.create(tmp, true)) {
            out.write(content);
        }
        if (fs.exists(p)) fs.delete(p, false);
        if (!fs.rename(tmp, p)) throw new IOException(path + ": cannot move the report into place");
    }

    @Override
    public int parallelism() {
        return parallelism;
    }

    private Configuration hadoop() {
        return spark.sparkContext().hadoopConfiguration();
    }
}
