package dlproflint.cli;

import dlproflint.engine.run.RuleCode;
import dlproflint.io.ScratchFiles;

/**
 * Only the command decides its exit code. A site rule that calls {@code System.exit(0)} while it runs would otherwise
 * end a failing run with 0 and turn a CI gate green. The static checks refuse such code in untrusted packs; for a
 * trusted pack (or code that slipped through) this shutdown hook sees an exit that the command did not ask for while
 * rule code was running, says so, and ends the process with exit 2 instead ({@code Runtime.halt}: the exit code of a
 * shutdown already under way cannot be changed any other way). A signal (SIGTERM, SIGINT) while rules run is left to
 * end the process as signals do. {@code Runtime.halt} itself runs no hook, so a trusted pack can still end the process
 * that way: see the trust model in docs/writing-rules.md.
 */
final class ExitGuard {
    private static volatile boolean requested;
    private static volatile boolean signalled;

    private ExitGuard() {
    }

    /** Installs the hook (the real process only; in-process callers of {@link Main#run} keep their JVM as it is). */
    static void install() {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("TERM"), sig -> signalled(143));
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), sig -> signalled(130));
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            // no signal API here: signals then count as exits nobody asked for only while rules run
        }
        Runtime.getRuntime().addShutdownHook(new Thread(ExitGuard::check, "dlprof-lint-exit-guard"));
    }

    /** The command is about to exit with its own code. */
    static void exiting() {
        requested = true;
    }

    private static void signalled(int code) {
        signalled = true;
        System.exit(code); // the JVM's own behaviour for these signals: run the hooks, exit 128 + signal
    }

    private static void check() {
        if (requested || signalled || !RuleCode.running()) return;
        System.err.println("dlprof-lint: a rule ended the process (System.exit) while the rules ran; rules may not end a run"
                + " or choose its exit code (see 'What site rules may do' in docs/writing-rules.md)");
        System.err.flush();
        ScratchFiles.removeAll();
        Runtime.getRuntime().halt(ExitCodes.USAGE);
    }
}
