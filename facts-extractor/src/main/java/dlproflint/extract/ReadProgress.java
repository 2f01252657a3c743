package dlproflint.extract;

/**
 * How far a reader has got, for a progress display: {@code done} of {@code total} units (bytes of a trace, phases
 * of an export). Readers call it from their reading thread, at most a few times per second's worth of work, and
 * never rely on it doing anything.
 */
@FunctionalInterface
public interface ReadProgress {
    ReadProgress NONE = (done, total) -> { };

    void update(long done, long total);
}
