package dlproflint.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code dlprof-lint}: the top-level command; {@code lint} is implied when no subcommand is named. */
@Command(name = "dlprof-lint", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class,
        synopsisSubcommandLabel = "[lint] PROFILE... | COMMAND",
        description = {"Rule-based performance linter for deep-learning GPU profiles (successor of NVIDIA DLProf).",
                "Without a command, lints the given profiles ('lint')."},
        commandListHeading = "%nCommands:%n",
        footerHeading = "%nExamples:%n",
        footer = {
                "  dlprof-lint run.sqlite",
                "  dlprof-lint run.sqlite --report sarif=dlprof.sarif --report html=dlprof.html",
                "  dlprof-lint rank*.sqlite --fail-on warning --baseline .dlprof-baseline.json",
                "  dlprof-lint job traces/ --report html=job.html",
                "  dlprof-lint report run.sqlite --reports summary,detail --output-path out/",
                "  dlprof-lint rules list",
                "  dlprof-lint rules explain dlprof/amp-not-used",
                "  source <(dlprof-lint completion bash)",
                "",
                "Exit codes: 0 no finding at or above --fail-on, 1 findings at or above it,",
                "2 usage, configuration or rule error, 3 unreadable or unsupported profile, 70 internal error.",
                "See 'dlprof-lint lint --help' for the lint options, docs/cli.md for more."})
final class RootCommand implements Callable<Integer> {
    private final CliEnv env;

    @Spec
    CommandLine.Model.CommandSpec spec;

    RootCommand(CliEnv env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(env.err());
        return ExitCodes.USAGE;
    }

    /** See {@link VersionInfo}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return VersionInfo.lines();
        }
    }
}
