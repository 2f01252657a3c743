package dlproflint.cli;

import dlproflint.findings.OneLine;
import dlproflint.cli.config.ConfigException;
import dlproflint.engine.LintEngine;
import dlproflint.engine.RuleLoadException;
import dlproflint.engine.run.RuleFailure;
import dlproflint.extract.ProfileException;
import picocli.CommandLine;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Entry point of the {@code dlprof-lint} command. {@link #run} is the whole command as a function
 * (arguments and surroundings in, exit code out) so tests drive the real thing.
 */
public final class Main {
    private static final Set<String> ROOT_WORDS = Set.of("lint", "run", "job", "compare", "report", "rules", "baseline", "completion",
            "help",
            "-h", "--help", "-V", "--version");

    private Main() {
    }

    public static void main(String[] args) {
        // An error on a helper thread (out of memory while a rule base loads in the background) is reported by the
        // command where it matters, as one line; the default handler would print a stack trace, and with a heap
        // too small for that, could itself fail.
        boolean debug = Arrays.asList(args).contains("--debug");
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            if (debug) e.printStackTrace();
        });
        ExitGuard.install();
        int code = run(CliEnv.system(), args);
        ExitGuard.exiting();
        System.exit(code);
    }

    /** Runs with captured streams, a working directory and an environment (tests). */
    public static int run(PrintStream out, PrintStream err, Path cwd, Map<String, String> environment, String... args) {
        return run(new CliEnv(out, err, cwd, environment, false, LocalDate::now), args);
    }

    public static int run(CliEnv env, String... args) {
        return run(env, null, args);
    }

    /**
     * The command with another way to read a job's ranks ({@code dlprof-lint job}): the Spark application passes
     * its backend; null reads them on this machine's threads.
     */
    public static int run(CliEnv env, JobBackend jobBackend, String... args) {
        boolean debug = Arrays.asList(args).contains("--debug");
        int code;
        String stored;
        try {
            if (args.length == 1 && VERSION.contains(args[0])) {
                // what picocli would print for the root's version option, without loading picocli: the command
                // line parser's classes are compiled for Java 5, which class-data sharing cannot keep, and they
                // were most of what '--version' cost
                for (String line : VersionInfo.lines()) env.out().println(line);
                env.out().flush();
                code = ExitCodes.OK;
            } else if (args.length == 0) {
                usage(env, env.err(), debug, jobBackend);
                code = ExitCodes.USAGE;
            } else if (args.length == 1 && HELP.contains(args[0])) {
                usage(env, env.out(), debug, jobBackend);
                code = ExitCodes.OK;
            } else if ((stored = StoredText.rulesList(env, args)) != null) {
                env.out().print(stored);
                env.out().flush();
                code = ExitCodes.OK;
            } else {
                String[] full = withDefaultCommand(args);
                // the rule bases are most of a small lint's work: built while the command line and configuration are read
                if (PREFETCH.contains(full[0])) LintEngine.prefetchBuiltin("job".equals(full[0]));
                code = commandLine(env, debug, full[0], jobBackend).execute(full);
            }
        } catch (OutOfMemoryError e) {
            code = fail(env, outOfMemory("running"), e, debug, ExitCodes.USAGE);
        } catch (RuntimeException | Error e) {
            code = internalError(env, e, debug);
        }
        return checkOutputs(env, code);
    }

    /**
     * Output that did not reach stdout or stderr (a full disk, a closed descriptor, a broken pipe) is a
     * failed run: exit 2 with one line, instead of a success that lost its report.
     */
    private static int checkOutputs(CliEnv env, int code) {
        String out = StdStream.failure(env.out());
        String err = StdStream.failure(env.err());
        boolean succeeded = code == ExitCodes.OK || code == ExitCodes.FINDINGS;
        if (!succeeded || (out == null && err == null)) return code; // a failed run has said why already
        if (out != null) {
            env.err().println("dlprof-lint: cannot write to standard output: " + OneLine.of(out));
            env.err().flush();
        }
        return ExitCodes.USAGE;
    }

    /** Commands that run without the others: only the one named is built (picocli reflects over each one built). */
    private static final Set<String> STANDALONE = Set.of("lint", "run", "job", "compare", "report", "rules", "baseline");
    /** Commands that lint with every built-in pack (compare runs one pack; the others lint nothing). */
    private static final Set<String> PREFETCH = Set.of("lint", "job");
    /** Root options that need no command at all. */
    private static final Set<String> VERSION = Set.of("-V", "--version");
    private static final Set<String> HELP = Set.of("-h", "--help");
    /**
     * The root's usage alone (no arguments, or only {@code --help}): its command list shows each command's name and
     * first description line, which the command's annotation gives; the full model of every command, which picocli
     * builds by reflecting over each one's options, was most of what {@code --help} cost.
     */
    static final String USAGE_ONLY = "";
    /** The commands in the order the usage lists them. */
    private static final List<Map.Entry<String, Class<?>>> COMMANDS = List.of(Map.entry("lint", LintCommand.class),
            Map.entry("run", RunCommand.class), Map.entry("job", JobCommand.class), Map.entry("compare", CompareCommand.class),
            Map.entry("report", ReportCommand.class), Map.entry("rules", RulesCommand.class),
            Map.entry("baseline", BaselineCommand.class), Map.entry("completion", CompletionCommand.class),
            Map.entry("help", CommandLine.HelpCommand.class));

    /**
     * @param command the subcommand word the arguments start with; when it names a {@link #STANDALONE}
     *                command, only that one is registered (start-up); {@link #USAGE_ONLY}: every command as the
     *                root's usage lists it; otherwise all, in full (help, completion)
     * @param jobBackend how {@code job} reads a job's ranks (the Spark application passes its own); null reads
     *                   them on this machine's threads
     */
    static CommandLine commandLine(CliEnv env, boolean debug, String command, JobBackend jobBackend) {
        CommandLine cl = new CommandLine(new RootCommand(env));
        if (USAGE_ONLY.equals(command)) {
            for (Map.Entry<String, Class<?>> c : COMMANDS) cl.addSubcommand(c.getKey(), listed(c.getKey(), c.getValue()));
            return configure(cl, env, debug);
        }
        boolean all = command == null || !STANDALONE.contains(command) && !VERSION.contains(command);
        if (all || command.equals("lint")) cl.addSubcommand("lint", new LintCommand(env));
        if (all || command.equals("run")) {
            // the training command's own options follow it: 'run --steps 3 python train.py --lr 1' needs no '--'
            CommandLine run = new CommandLine(new RunCommand(env));
            run.setStopAtPositional(true);
            cl.addSubcommand("run", run);
        }
        if (all || command.equals("job")) {
            cl.addSubcommand("job", new JobCommand(env, jobBackend == null ? new LocalJobBackend(env) : jobBackend));
        }
        if (all || command.equals("compare")) cl.addSubcommand("compare", new CompareCommand(env));
        if (all || command.equals("report")) cl.addSubcommand("report", new ReportCommand(env));
        if (all || command.equals("rules")) {
            CommandLine rules = new CommandLine(new RulesCommand(env));
            rules.addSubcommand("list", new RulesCommand.ListCommand(env));
            rules.addSubcommand("explain", new RulesCommand.ExplainCommand(env));
            rules.addSubcommand("test", new RulesCommand.TestCommand(env));
            rules.addSubcommand("docs", new RulesCommand.DocsCommand(env));
            cl.addSubcommand("rules", rules);
        }
        if (all || command.equals("baseline")) cl.addSubcommand("baseline", new BaselineCommand(env));
        if (all) {
            // the command list of the usage and the completion script show every command
            cl.addSubcommand("completion", new CompletionCommand(env, cl));
            cl.addSubcommand("help", new CommandLine.HelpCommand());
        }
        return configure(cl, env, debug);
    }

    /** The root's usage: as the build stored it ({@link StoredText}) when it is printed without colour, else rendered. */
    private static void usage(CliEnv env, PrintStream to, boolean debug, JobBackend jobBackend) {
        String stored = colour(env) ? null : StoredText.get(StoredText.USAGE);
        if (stored != null) {
            to.print(stored);
            to.flush();
        } else {
            commandLine(env, debug, USAGE_ONLY, jobBackend).usage(to);
        }
    }

    private static boolean colour(CliEnv env) {
        return env.interactive() && ColorMode.AUTO.enabled(env);
    }

    /** A command as the root's command list shows it: its name and description, no options. */
    private static CommandLine listed(String name, Class<?> type) {
        CommandLine.Command c = type.getAnnotation(CommandLine.Command.class);
        CommandLine.Model.CommandSpec spec = CommandLine.Model.CommandSpec.create().name(name);
        // the list shows the header, or where there is none the first line of the description
        spec.usageMessage().header(c.header()).description(c.description()).hidden(c.hidden());
        return new CommandLine(spec);
    }

    private static CommandLine configure(CommandLine cl, CliEnv env, boolean debug) {
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setUsageHelpWidth(100);
        cl.setOut(new PrintWriter(env.out(), true));
        cl.setErr(new PrintWriter(env.err(), true));
        cl.setColorScheme(CommandLine.Help.defaultColorScheme(
                colour(env) ? CommandLine.Help.Ansi.ON : CommandLine.Help.Ansi.OFF));
        cl.setParameterExceptionHandler((ex, a) -> {
            String cmd = ex.getCommandLine().getCommandSpec().qualifiedName();
            env.err().println("dlprof-lint: " + OneLine.of(ex.getMessage()) + " (see '" + cmd + " --help')");
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> handle(env, ex, debug));
        return cl;
    }

    /** {@code lint} is the default command: {@code dlprof-lint run.sqlite} means {@code dlprof-lint lint run.sqlite}. */
    static String[] withDefaultCommand(String[] args) {
        if (args.length > 0 && ROOT_WORDS.contains(args[0])) return args;
        List<String> all = new ArrayList<>();
        all.add("lint");
        all.addAll(Arrays.asList(args));
        return all.toArray(String[]::new);
    }

    private static int handle(CliEnv env, Exception ex, boolean debug) {
        if (ex instanceof CliException c) return fail(env, c.getMessage(), c, debug, c.exitCode());
        if (ex instanceof ConfigException || ex instanceof RuleLoadException || ex instanceof RuleFailure) {
            // a rule that throws, overflows, runs out of memory or overruns its time limit: the message names
            // the rule and its file, and it is the rule author's to fix (exit 2), not a bug of the tool (70)
            return fail(env, ex.getMessage(), ex, debug, ExitCodes.USAGE);
        }
        if (ex instanceof ProfileException p) {
            String file = p.file() == null ? "" : p.file() + ": ";
            return fail(env, file + p.getMessage(), ex, debug, ExitCodes.PROFILE);
        }
        if (ex instanceof dlproflint.reporters.ReportException r) {
            // e.g. a SARIF result with no location GitHub would accept: the user must configure an anchor.
            return fail(env, r.getMessage(), ex, debug, ExitCodes.USAGE);
        }
        if (ex instanceof dlproflint.reporters.io.OutputWriteException w) {
            return fail(env, w.target() + ": cannot write: " + w.reason(), ex, debug, ExitCodes.USAGE);
        }
        if (ex instanceof java.io.IOException io) {
            // Reports and baselines are the only files we write; the message names the file.
            return fail(env, "cannot write: " + io.getMessage(), ex, debug, ExitCodes.USAGE);
        }
        return internalError(env, ex, debug);
    }

    /**
     * Running out of heap is a limit to raise, not a bug: the message says how large the heap was and how to give
     * Java more ({@code DLPROF_LINT_JAVA_OPTS}, read by the launcher).
     */
    static String outOfMemory(String doing) {
        long max = Runtime.getRuntime().maxMemory();
        return "ran out of memory " + doing + " (Java heap limit " + (max == Long.MAX_VALUE ? "none" : (max >> 20) + " MB")
                + "); give Java more with DLPROF_LINT_JAVA_OPTS=-Xmx<size>, or use a shorter capture";
    }

    private static int fail(CliEnv env, String message, Throwable t, boolean debug, int code) {
        env.err().println("dlprof-lint: " + OneLine.of(message));
        if (debug) t.printStackTrace(env.err());
        return code;
    }

    private static int internalError(CliEnv env, Throwable t, boolean debug) {
        env.err().println("dlprof-lint: internal error: " + OneLine.of(t.getClass().getSimpleName() + ": " + t.getMessage())
                + (debug ? "" : " (rerun with --debug for details, and please report it)"));
        if (debug) t.printStackTrace(env.err());
        return ExitCodes.INTERNAL;
    }
}
