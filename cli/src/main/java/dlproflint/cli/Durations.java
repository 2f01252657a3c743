package dlproflint.cli;

import java.time.Duration;

/**
 * Time limits given in seconds: on the command line ({@code --rule-timeout}, {@code --read-timeout}) or in the
 * environment ({@code DLPROF_LINT_OUTPUT_TIMEOUT}, {@code DLPROF_LINT_STDIN_TIMEOUT}).
 */
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

    /** The environment variable {@code name} as seconds above 0; unset or blank: {@code fallback}. */
    static Duration fromEnvironment(CliEnv env, String name, Duration fallback) throws CliException {
        String value = env.getenv(name);
        if (value == null || value.isBlank()) return fallback;
        try {
            double s = Double.parseDouble(value.strip());
            if (!(s > 0) || s > 1e9) throw new NumberFormatException();
            return Duration.ofMillis((long) (s * 1000));
        } catch (NumberFormatException e) {
            throw CliException.usage(name + "=" + value + " is not a number of seconds above 0");
        }
    }
}
