package dlproflint.cli;

import picocli.CommandLine.Option;

/** Options every working subcommand accepts. */
final class CommonOptions {
    /** Read by {@link Main}'s exception handler (from the arguments) to decide on stack traces. */
    @Option(names = "--debug", description = "Print stack traces of errors (for bug reports).")
    boolean debug;
}
