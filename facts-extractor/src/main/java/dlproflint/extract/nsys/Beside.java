package dlproflint.extract.nsys;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs passes on a second connection to the profile, on a thread of its own, one after the other, while
 * the reader's thread does another pass: on two cores the profile's end is found beside the key-node
 * pass, and the time breakdown is swept beside the correlation pass. A failure surfaces where the reader
 * {@link #join}s the pass, as if it had run there; if the reader stops first, the pass is interrupted.
 */
final class Beside implements AutoCloseable {
    private final NsysDatabase db;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "dlprof-lint-nsys");
        t.setDaemon(true);
        return t;
    });
    private Future<?> last;

    Beside(NsysDatabase db) {
        this.db = db;
    }

    /** The connection the passes run on. */
    NsysDatabase db() {
        return db;
    }

    <T> Future<T> run(Callable<T> pass) {
        Future<T> f = thread.submit(pass);
        last = f;
        return f;
    }

    /** The pass's result, or its exception as it was thrown. */
    <T> T join(Future<T> pass) throws Exception {
        try {
            return pass.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception ex) throw ex;
            if (e.getCause() instanceof Error err) throw err;
            throw e;
        }
    }

    /** Stops a pass still running (the reader failed or restarts) and waits for it, so the connection can close. */
    @Override
    public void close() {
        if (last != null && !last.isDone()) {
            last.cancel(true);
            db.interrupt();
        }
        thread.shutdown();
        try {
            if (last != null) last.get();
        } catch (ExecutionException | CancellationException e) {
            // its result is not wanted any more
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        while (!thread.isTerminated()) {
            try {
                thread.awaitTermination(1, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
