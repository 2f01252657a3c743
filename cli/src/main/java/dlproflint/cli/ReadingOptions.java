package dlproflint.cli;

import dlproflint.extract.ReadOptions;
import dlproflint.extract.nsys.NsysTool;
import picocli.CommandLine.Option;

/**
 * How profiles are read: cut into iterations (DLProf's key node and aggregation range) and how long one read may
 * take. {@link ProfileOptions} adds the nsys that exports reports; {@code run} has an {@code --nsys} of its own.
 */
class ReadingOptions {
    @Option(names = "--key-node", paramLabel = "NAME",
            description = "Op or range whose end marks an iteration, DLProf's rule (a family name matches its numbered "
                    + "members: ProfilerStep matches ProfilerStep#12). Default: found from the profile (step markers, "
                    + "numbered ranges, DataLoader/optimizer calls, a repeating op); see docs/cli.md.")
    String keyNode;

    @Option(names = "--iter-start", paramLabel = "N", description = "First iteration to aggregate (inclusive).")
    Integer iterStart;

    @Option(names = "--iter-stop", paramLabel = "N", description = "Last iteration to aggregate (inclusive).")
    Integer iterStop;

    @Option(names = "--read-timeout", paramLabel = "SECONDS",
            description = "Time limit for reading one SQLite profile (default: 60 plus 1 per MB of the file; 0 = none). "
                    + "A read that overruns is stopped and the profile refused (exit 3).")
    Double readTimeout;

    /** @param nsys the nsys that exports {@code .nsys-rep} reports, as the user named it, or null */
    ReadOptions toReadOptions(CliEnv env, String nsys) throws CliException {
        if (iterStart != null && iterStart < 0) throw CliException.usage("--iter-start must be 0 or more, not " + iterStart);
        if (iterStop != null && iterStop < 0) throw CliException.usage("--iter-stop must be 0 or more, not " + iterStop);
        if (iterStart != null && iterStop != null && iterStop < iterStart) {
            throw CliException.usage("--iter-stop (" + iterStop + ") is before --iter-start (" + iterStart + ")");
        }
        return new ReadOptions(keyNode, iterStart, iterStop, NsysTool.fromEnvironment(env.env(), nsys),
                readTimeout == null ? null : Durations.seconds(readTimeout, "--read-timeout"));
    }
}
