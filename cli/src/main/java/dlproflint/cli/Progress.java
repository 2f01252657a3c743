package dlproflint.cli;

import java.util.Locale;

/**
 * Progress of long extractions, on stderr and only when stderr is a terminal outside CI: stdout
 * carries only reports, and CI logs should not fill with progress lines.
 */
final class Progress {
    private final CliEnv env;
    private final boolean enabled;

    Progress(CliEnv env) {
        this.env = env;
        this.enabled = env.showProgress();
    }

    void started(String profile, int index, int total) {
        if (enabled) line(String.format(Locale.ROOT, "[%d/%d] reading %s", index + 1, total, profile));
    }

    void finished(String profile, long nanos, int findings) {
        if (enabled) {
            line(String.format(Locale.ROOT, "%s: read and linted in %.1f s, %d finding%s", profile, nanos / 1e9,
                    findings, findings == 1 ? "" : "s"));
        }
    }

    private synchronized void line(String s) {
        env.err().println("dlprof-lint: " + s);
        env.err().flush();
    }
}
