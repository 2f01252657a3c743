package dlproflint.extract.common;

import dlproflint.extract.ReadOptions;

import java.nio.file.Path;
import java.time.Duration;

/**
 * When a read of one profile file must have finished. Every SQLite query runs under a progress handler
 * that checks it ({@link ReadOnlySqlite#open(Path, ReadDeadline)}), so no query can keep a core busy for
 * ever, whatever the file holds (a view with a recursive query, a join SQLite cannot do with an index).
 * The default grows with the file: {@value #BASE_SECONDS} s plus {@value #SECONDS_PER_MB} s per MB
 * (the 119 MB benchmark export with a million kernel launches is read in about 15 s, so a real export
 * has a wide margin even on a loaded machine); {@code --read-timeout} sets it.
 *
 * @param limit the limit, for messages; null = none
 */
public record ReadDeadline(long atNanos, Duration limit) {
    public static final long BASE_SECONDS = 60;
    public static final long SECONDS_PER_MB = 1;
    public static final ReadDeadline NONE = new ReadDeadline(Long.MAX_VALUE, null);

    /** The default limit for a file of {@code bytes}. */
    public static Duration defaultLimit(long bytes) {
        return Duration.ofSeconds(BASE_SECONDS + SECONDS_PER_MB * Math.max(0, bytes) / 1_000_000);
    }

    /** Starts now, with the limit the options give or the default for this file. */
    public static ReadDeadline start(Path file, ReadOptions options) {
        Duration limit = options == null ? null : options.readTimeLimit();
        if (limit == null) {
            long size;
            try {
                size = java.nio.file.Files.size(file);
            } catch (java.io.IOException e) {
                size = 0;
            }
            limit = defaultLimit(size);
        }
        if (limit.isZero() || limit.isNegative()) return NONE;
        long now = System.nanoTime();
        long at = now + limit.toNanos();
        return new ReadDeadline(at < now ? Long.MAX_VALUE : at, limit);
    }

    public boolean passed() {
        return atNanos != Long.MAX_VALUE && System.nanoTime() - atNanos > 0;
    }

    /** The limit as a message says it ({@code 71 s}). */
    public String limitText() {
        return limit == null ? "no limit" : limit.toMillis() % 1000 == 0 ? limit.toSeconds() + " s" : limit.toMillis() + " ms";
    }

    /** The one-line problem for a read that was stopped. */
    public String message() {
        String l = limit == null ? "" : limit.toMillis() % 1000 == 0 ? limit.toSeconds() + " s" : limit.toMillis() + " ms";
        return "reading stopped at the time limit of " + l + " for this file (" + BASE_SECONDS + " s plus " + SECONDS_PER_MB
                + " s per MB; --read-timeout changes it): the file is very large or holds a table that takes hostile work to read";
    }
}
