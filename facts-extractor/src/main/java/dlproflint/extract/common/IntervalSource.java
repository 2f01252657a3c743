package dlproflint.extract.common;

/** A cursor over intervals sorted by start (typically an SQL result set); {@link #category} ranks it. */
public interface IntervalSource extends AutoCloseable {
    /** Advance; false when exhausted. */
    boolean next() throws Exception;

    long start();

    long end();

    int category();

    @Override
    default void close() throws Exception {
    }
}
