package dlproflint.extract.nsys;

import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ProfileFacts;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The reader contract for hostile input: either facts, or a {@link ProfileException} whose message is one
 * line naming the problem; never another exception type, never unbounded time.
 */
final class ReadContract {
    static final Duration LIMIT = Duration.ofSeconds(60);

    private ReadContract() {
    }

    /** The outcome of one read: facts or the one-line problem. */
    record Outcome(ProfileFacts facts, String problem) {
        boolean ok() {
            return facts != null;
        }

        @Override
        public String toString() {
            return ok() ? "facts (" + facts.kernels().size() + " kernels, warnings " + facts.warnings() + ")" : "ProfileException: " + problem;
        }
    }

    static ProfileReaders readers() {
        ProfileReaders r = ProfileReaders.discover();
        assertTrue(r.formats().contains("nsys-sqlite"), "no nsys-sqlite reader on the class path (formats: " + r.formats() + ")");
        return r;
    }

    /** Reads {@code file} through format detection, in bounded time, and checks the exception contract. */
    static Outcome read(ProfileReaders readers, Path file) {
        ExecutorService ex = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "bad-input-read");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<ProfileFacts> f = ex.submit(() -> readers.read(file, ReadOptions.DEFAULT));
            try {
                return new Outcome(f.get(LIMIT.toSeconds(), TimeUnit.SECONDS), null);
            } catch (TimeoutException e) {
                f.cancel(true);
                fail("reading " + file.getFileName() + " took longer than " + LIMIT.toSeconds() + " s");
                return null;
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                if (c instanceof ProfileException pe) {
                    String m = pe.getMessage();
                    assertTrue(m != null && !m.isBlank(), "ProfileException without a message");
                    assertFalse(m.contains("\n") || m.contains("\r"), "message is not one line: " + m);
                    assertFalse(m.matches("(?s).*\\bat [a-z]+\\.[\\w.$]+\\(.*"), "message holds a stack trace: " + m);
                    assertTrue(m.length() < 500, "message too long (" + m.length() + " chars)");
                    return new Outcome(null, m);
                }
                throw new AssertionError("reading " + file.getFileName() + " threw " + c.getClass().getName()
                        + " instead of ProfileException: " + c.getMessage(), c);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        } finally {
            ex.shutdownNow();
        }
    }
}
