package dlproflint.cli;

import picocli.CommandLine.Option;

/** {@code -j/--jobs N}, for every command that reads several profiles ({@code lint}, {@code baseline}, {@code job}). */
final class JobsOption {
    @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "Profiles read in parallel (default: up to 4).")
    int jobs;

    /** The option's value, 0 for the default. */
    int value() throws CliException {
        if (jobs < 0) throw CliException.usage("--jobs must be 1 or more");
        return jobs;
    }
}
