package dlproflint.engine.run;

import java.time.Duration;

/**
 * When the rule sessions of one profile must have finished: {@code limit} after the lint started
 * (shared by all packs of the run), on the {@link System#nanoTime()} clock.
 *
 * @param limit the configured time limit, for messages; null = none
 */
public record RuleDeadline(long atNanos, Duration limit) {
    public static final RuleDeadline NONE = new RuleDeadline(Long.MAX_VALUE, null);

    /** {@code limit} from now; null, zero or negative = no limit. */
    public static RuleDeadline after(Duration limit) {
        if (limit == null || limit.isZero() || limit.isNegative()) return NONE;
        long now = System.nanoTime();
        long at = now + limit.toNanos();
        return new RuleDeadline(at < now ? Long.MAX_VALUE : at, limit);
    }

    boolean unlimited() {
        return atNanos == Long.MAX_VALUE;
    }

    String limitText() {
        if (limit == null) return "none";
        return limit.toMillis() % 1000 == 0 ? limit.toSeconds() + " s" : limit.toMillis() + " ms";
    }
}
