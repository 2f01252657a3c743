package dlproflint.engine.run;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where rule code runs: on a thread of its own, watched. Every place the engine lets a pack's code run goes through
 * here: a rule session ({@link SessionRunner}) and the building of a site pack's rule base (Drools evaluates an
 * {@code eval(...)} that uses no fact once, when the KieBase is made). Whatever the code does, the caller gets control
 * back within the limit: the thread is interrupted, then stopped, and if the JVM refuses to stop it, abandoned as a
 * daemon thread that the process's exit does not wait for.
 *
 * <p>{@link #running()} says whether rule code is on some thread right now (an abandoned thread counts until it
 * ends): the command's exit guard uses it to tell a rule that called {@code System.exit} from an ordinary exit.
 */
public final class RuleCode {
    private static final AtomicInteger RUNNING = new AtomicInteger();

    private RuleCode() {
    }

    /** The code did not return within the limit; {@link #stack()} is where it was. */
    public static final class Overrun extends Exception {
        private final transient StackTraceElement[] stack;

        Overrun(StackTraceElement[] stack) {
            super("did not return within the time limit");
            this.stack = stack;
        }

        public StackTraceElement[] stack() {
            return stack;
        }
    }

    /** Whether rule code runs on some thread now. */
    public static boolean running() {
        return RUNNING.get() > 0;
    }

    /**
     * Runs {@code work} on a new daemon thread named {@code name} and waits at most {@code limit} (null or zero: no
     * limit). An {@code Error} it throws (stack overflow, out of memory) is rethrown here as it was.
     */
    public static <T> T call(String name, Duration limit, Callable<T> work) throws Exception {
        Object[] result = new Object[1];
        Throwable[] failure = new Throwable[1];
        Thread worker = new Thread(() -> {
            RUNNING.incrementAndGet();
            try {
                result[0] = work.call();
            } catch (Throwable t) { // NOPMD: handed to the caller
                failure[0] = t;
            } finally {
                RUNNING.decrementAndGet();
            }
        }, name);
        worker.setDaemon(true);
        worker.start();
        if (!Watchdog.await(worker, RuleDeadline.after(limit))) {
            StackTraceElement[] stack = worker.getStackTrace();
            Watchdog.stop(worker, null);
            throw new Overrun(stack);
        }
        if (failure[0] instanceof Exception e) throw e;
        if (failure[0] instanceof Error e) throw e;
        @SuppressWarnings("unchecked")
        T t = (T) result[0];
        return t;
    }

    /** Marks the current thread as running rule code until {@link #left()} (a session's own worker thread). */
    static void entered() {
        RUNNING.incrementAndGet();
    }

    static void left() {
        RUNNING.decrementAndGet();
    }
}
