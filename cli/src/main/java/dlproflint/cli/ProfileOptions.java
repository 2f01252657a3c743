package dlproflint.cli;

import dlproflint.extract.ReadOptions;
import picocli.CommandLine.Option;

/** How profiles are cut into iterations (DLProf's key node and aggregation range). */
final class ProfileOptions {
    @Option(names = "--key-node", paramLabel = "NAME",
            description = "Op or range whose end marks an iteration, DLProf's rule (a family name matches its numbered "
                    + "members: ProfilerStep matches ProfilerStep#12). Default: found from the profile (step markers, "
                    + "numbered ranges, DataLoader/optimizer calls, a repeating op); see docs/cli.md.")
    String keyNode;

    @Option(names = "--iter-start", paramLabel = "N", description = "First iteration to aggregate (inclusive).")
    Integer iterStart;

    @Option(names = "--iter-stop", paramLabel = "N", description = "Last iteration to aggregate (inclusive).")
    Integer iterStop;

    ReadOptions toReadOptions() throws CliException {
        if (iterStart != null && iterStart < 0) throw CliException.usage("--iter-start must be 0 or more, not " + iterStart);
        if (iterStop != null && iterStop < 0) throw CliException.usage("--iter-stop must be 0 or more, not " + iterStop);
        if (iterStart != null && iterStop != null && iterStop < iterStart) {
            throw CliException.usage("--iter-stop (" + iterStop + ") is before --iter-start (" + iterStart + ")");
        }
        return new ReadOptions(keyNode, iterStart, iterStop);
    }
}
