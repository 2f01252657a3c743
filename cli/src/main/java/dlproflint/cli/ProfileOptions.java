package dlproflint.cli;

import dlproflint.extract.ReadOptions;
import picocli.CommandLine.Option;

/** How profiles are read ({@link ReadingOptions}), and which nsys exports {@code .nsys-rep} reports. */
final class ProfileOptions extends ReadingOptions {
    @Option(names = "--nsys", paramLabel = "PATH",
            description = "nsys that exports .nsys-rep reports to SQLite (default: $DLPROF_LINT_NSYS, else nsys on PATH).")
    String nsys;

    ReadOptions toReadOptions(CliEnv env) throws CliException {
        return toReadOptions(env, nsys);
    }
}
