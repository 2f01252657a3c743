package dlproflint.extract.kineto;

/**
 * What the Kineto reader materialises, bounded in proportion to the file, so that a small file cannot
 * make it hold gigabytes (a gzip of identical events, a {@code deviceProperties} array of millions of
 * empty objects, millions of distinct names). Real traces sit far inside every limit: the densest gzipped
 * trace of the corpus holds one event per 12.7 compressed bytes and expands 30 times; names and shapes
 * are a few MB. A trace over a limit is refused with a message that names the limit.
 *
 * <ul>
 *   <li>decompressed size: at most {@link TraceInput#MAX_EXPANSION_RATIO} times the file ({@link TraceInput});</li>
 *   <li>events: at most one per {@value #BYTES_PER_EVENT} bytes of the file, and never fewer than
 *       {@value #MIN_EVENTS} allowed (each kept GPU activity costs about 48 bytes of memory);</li>
 *   <li>distinct text kept (kernel, op and API names, shapes, call stacks): at most
 *       {@value #TEXT_CHARS_PER_BYTE} characters per byte of the file, and never less than {@value #MIN_TEXT_CHARS};</li>
 *   <li>GPU devices: at most {@value #MAX_DEVICES} distinct ids on events; {@code deviceProperties} entries beyond
 *       that many are skipped (with a warning), and each entry's nested values are skipped.</li>
 * </ul>
 */
final class TraceLimits {
    static final long BYTES_PER_EVENT = 4;
    static final long MIN_EVENTS = 1_000_000;
    static final long TEXT_CHARS_PER_BYTE = 2;
    static final long MIN_TEXT_CHARS = 32L * 1024 * 1024;
    static final int MAX_DEVICES = 1024;
    /** Scalar fields kept per {@code deviceProperties} entry, and per {@code distributedInfo}. */
    static final int MAX_FIELDS = 64;
    /** Longest scalar kept in {@code deviceProperties} or {@code distributedInfo}. */
    static final int MAX_FIELD_CHARS = 1024;

    final long fileBytes;
    final long maxEvents;
    final long maxTextChars;

    TraceLimits(long fileBytes) {
        this.fileBytes = fileBytes;
        this.maxEvents = Math.max(MIN_EVENTS, fileBytes / BYTES_PER_EVENT);
        this.maxTextChars = Math.max(MIN_TEXT_CHARS, fileBytes * TEXT_CHARS_PER_BYTE);
    }

    /** No limit beyond the fixed ones (tests that feed a stream without a file). */
    static TraceLimits unbounded() {
        return new TraceLimits(Long.MAX_VALUE / 8);
    }

    TraceLimitException tooManyEvents() {
        return new TraceLimitException("holds more than " + maxEvents + " events, more than one per " + BYTES_PER_EVENT
                + " bytes of the " + fileBytes + "-byte file: not a profiler trace (a real one has one per 12 compressed "
                + "bytes or more)");
    }

    TraceLimitException tooMuchText() {
        return new TraceLimitException("holds more than " + maxTextChars / (1024 * 1024) + " Mi characters of distinct names, "
                + "shapes and call stacks (" + TEXT_CHARS_PER_BYTE + " per byte of the file): not a profiler trace");
    }

    static TraceLimitException tooManyDevices() {
        return new TraceLimitException("events name more than " + MAX_DEVICES + " distinct GPU devices: not a profiler trace");
    }

    /** A trace that exceeds one of the limits; thrown from the streaming callbacks, turned into one line by the reader. */
    static final class TraceLimitException extends RuntimeException {
        TraceLimitException(String message) {
            super(message);
        }
    }
}
