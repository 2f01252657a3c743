package dlproflint.cli;

import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

/** {@code dlprof-lint completion [bash|zsh]}: prints a completion script (picocli AutoComplete). */
@Command(name = "completion", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class, description = "Print a shell completion script for bash (also works in zsh via bashcompinit).",
        footerHeading = "%nExample:%n", footer = {"  source <(dlprof-lint completion bash)",
        "  dlprof-lint completion bash > /etc/bash_completion.d/dlprof-lint"})
final class CompletionCommand implements Callable<Integer> {
    private final CliEnv env;
    private final CommandLine root;

    @Parameters(arity = "0..1", paramLabel = "SHELL", defaultValue = "bash", description = "bash (default) or zsh.")
    String shell;

    CompletionCommand(CliEnv env, CommandLine root) {
        this.env = env;
        this.root = root;
    }

    @Override
    public Integer call() throws CliException {
        if (!shell.equals("bash") && !shell.equals("zsh")) {
            throw CliException.usage("completion: unsupported shell '" + shell + "' (expected bash or zsh)");
        }
        env.out().print(AutoComplete.bash("dlprof-lint", root));
        env.out().flush();
        return ExitCodes.OK;
    }
}
