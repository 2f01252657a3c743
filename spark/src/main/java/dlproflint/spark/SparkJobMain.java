package dlproflint.spark;

import dlproflint.cli.CliEnv;
import dlproflint.cli.Main;
import org.apache.spark.sql.SparkSession;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Spark application: {@code dlprof-lint job} with its ranks read by Spark tasks. The arguments are those of
 * {@code dlprof-lint job} (profiles, folders or globs as Hadoop filesystem paths or URIs, and every option); the
 * driver loads the configuration and the rule packs, reads the ranks through {@link SparkJobBackend}, computes
 * the cross-rank facts, runs the job rules and writes the reports, exactly as the command does on one machine.
 *
 * <pre>
 * spark-submit --class dlproflint.spark.SparkJobMain dlprof-lint-spark.jar hdfs:///jobs/run42/ --report json=run42.json
 * </pre>
 * The master comes from {@code spark-submit} ({@code --master}); without one (the local launcher) it is
 * {@code local[*]}.
 */
public final class SparkJobMain {
    private SparkJobMain() {
    }

    public static void main(String[] args) {
        System.exit(run(CliEnv.system(), args));
    }

    /** Runs the job on a Spark session made for it (stopped afterwards); returns the exit code. */
    public static int run(CliEnv env, String... args) {
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h") || args.length == 0) {
            return Main.run(env, "job", "--help");
        }
        SparkSession.Builder builder = SparkSession.builder().appName("dlprof-lint job");
        if (!new org.apache.spark.SparkConf().contains("spark.master")) builder.master("local[*]");
        SparkSession spark = builder.getOrCreate();
        try {
            return run(env, spark, args);
        } finally {
            spark.stop();
        }
    }

    /** Runs the job on an existing session (tests). */
    public static int run(CliEnv env, SparkSession spark, String... args) {
        List<String> all = new ArrayList<>();
        all.add("job");
        all.addAll(Arrays.asList(args));
        return Main.run(env, new SparkJobBackend(spark), all.toArray(String[]::new));
    }
}
