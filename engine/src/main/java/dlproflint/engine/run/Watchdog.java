package dlproflint.engine.run;

import org.kie.api.runtime.KieSession;

import java.time.Duration;

/**
 * Waits for a rule session's thread until its deadline, and stops it when it overruns. Drools'
 * {@link KieSession#halt()} ends an update or insert loop between two firings; an interrupt ends a rule
 * that waits or sleeps; a rule spinning in its own code ({@code while (true)}) honours neither, so as a last
 * resort its thread is stopped ({@code Thread.stop}, still available on Java 17 to 19: the session is
 * thrown away, so nothing it leaves half-done is used again). Where the JVM refuses, the thread is left
 * behind as a daemon, which the command's exit ends.
 */
final class Watchdog {
    /** How long a halted or interrupted session gets to wind down. */
    private static final long GRACE_NANOS = Duration.ofSeconds(1).toNanos();
    /** @return whether the thread finished before the deadline */
    static boolean await(Thread worker, RuleDeadline deadline) {
        boolean interrupted = false;
        try {
            while (worker.isAlive()) {
                try {
                    if (deadline.unlimited()) {
                        worker.join();
                    } else {
                        long left = deadline.atNanos() - System.nanoTime();
                        if (left <= 0) return false;
                        worker.join(Math.max(1, left / 1_000_000));
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return true;
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /**
     * Halts (when there is a session), interrupts and if need be stops an overrunning rule thread.
     *
     * @return whether the thread ended (the session may then be disposed)
     */
    @SuppressWarnings({"removal", "deprecation"})
    static boolean stop(Thread worker, KieSession session) {
        if (session != null) session.halt();
        worker.interrupt();
        if (joined(worker)) return true;
        try {
            worker.stop();
        } catch (UnsupportedOperationException e) {
            return false; // Java 20+: left as a daemon thread
        }
        return joined(worker);
    }

    private static boolean joined(Thread worker) {
        try {
            worker.join(GRACE_NANOS / 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !worker.isAlive();
    }
}
