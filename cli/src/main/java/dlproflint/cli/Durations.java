package dlproflint.cli;

import java.time.Duration;

/** Time limits given on the command line in seconds ({@code --rule-timeout}, {@code --read-timeout}). */
final class Durations {
    private Durations() {
    }

    /** {@code 0} means no limit (a zero duration); negative, NaN or absurd values are a usage error. */
    static Duration seconds(double value, String option) throws CliException {
        if (Double.isNaN(value) || value < 0 || value > 1e9) {
            throw CliException.usage(option + " must be a number of seconds, 0 or more (0 = no limit)");
        }
        return Duration.ofMillis(Math.round(value * 1000));
    }
}
