package dlproflint.engine.compile;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Values built once per key for the life of the process, by whichever thread asks first; a thread that asks while
 * another builds waits for it. What the built-in packs are and the rule bases of their shipped kjars cannot change
 * while the process runs, so a command that starts building them before it has parsed its arguments
 * ({@link dlproflint.engine.LintEngine#prefetchBuiltin}) hands them to the engine it loads afterwards, and a process
 * that loads engines many times (tests, the Spark runner's executors) builds each once.
 * A failure is not kept: the next caller builds again, and reports it.
 */
public final class BuiltOnce<K, V> {
    /** Builds a value. */
    @FunctionalInterface
    public interface Build<V, E extends Exception> {
        V get() throws E;
    }

    private final ConcurrentHashMap<K, CompletableFuture<V>> byKey = new ConcurrentHashMap<>();

    public <E extends Exception> V get(K key, Build<V, E> build) throws E {
        CompletableFuture<V> mine = new CompletableFuture<>();
        CompletableFuture<V> theirs = byKey.putIfAbsent(key, mine);
        if (theirs != null) {
            try {
                return theirs.join();
            } catch (CompletionException | CancellationException e) {
                return build.get(); // the other builder failed: build here, where the failure is reported
            }
        }
        try {
            V v = build.get();
            mine.complete(v);
            return v;
        } catch (Exception | Error e) {
            byKey.remove(key, mine);
            mine.completeExceptionally(e);
            throw e;
        }
    }
}
