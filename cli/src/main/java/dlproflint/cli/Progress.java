package dlproflint.cli;

import dlproflint.extract.ReadProgress;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Progress of the reads, on stderr and only when stderr is a terminal outside CI: stdout carries only reports,
 * and CI logs should not fill with progress lines. A read that takes longer than {@link #DELAY_NS} gets a bar,
 * redrawn in place at most every {@link #REDRAW_NS}: the share done over every profile being read (readers
 * report bytes or phases through {@link ReadProgress}) and the time left at the pace so far.
 */
final class Progress {
    /** Reads shorter than this show no bar: it would only flicker. */
    static final long DELAY_NS = 2_000_000_000L;
    static final long REDRAW_NS = 200_000_000L;
    private static final int WIDTH = 24;

    private final CliEnv env;
    private final boolean enabled;
    private final LongSupplier clock;
    private final Map<String, double[]> reading = new LinkedHashMap<>();
    private long firstStart = -1;
    private long lastDraw;
    private boolean barShown;

    Progress(CliEnv env) {
        this(env, System::nanoTime);
    }

    Progress(CliEnv env, LongSupplier clock) {
        this.env = env;
        this.enabled = env.showProgress();
        this.clock = clock;
    }

    synchronized void started(String profile, int index, int total) {
        if (!enabled) return;
        if (firstStart < 0) firstStart = clock.getAsLong();
        reading.put(profile, new double[] {0});
        line(String.format(Locale.ROOT, "[%d/%d] reading %s", index + 1, total, profile));
    }

    /** The callback a reader reports through for one profile. */
    ReadProgress of(String profile) {
        return enabled ? (done, total) -> update(profile, done, total) : ReadProgress.NONE;
    }

    synchronized void update(String profile, long done, long total) {
        double[] f = reading.get(profile);
        if (f == null || total <= 0) return;
        f[0] = Math.max(0, Math.min(1, (double) done / total));
        long now = clock.getAsLong();
        if (now - firstStart < DELAY_NS || now - lastDraw < REDRAW_NS) return;
        lastDraw = now;
        draw(now);
    }

    synchronized void finished(String profile, long nanos, int findings) {
        if (!enabled) return;
        reading.remove(profile);
        line(String.format(Locale.ROOT, "%s: read and linted in %.1f s, %d finding%s", profile, nanos / 1e9,
                findings, findings == 1 ? "" : "s"));
    }

    private void draw(long now) {
        if (reading.isEmpty()) return;
        double sum = 0;
        for (double[] f : reading.values()) sum += f[0];
        double share = sum / reading.size();
        String what = reading.size() == 1 ? reading.keySet().iterator().next() : reading.size() + " profiles";
        int filled = (int) Math.round(share * WIDTH);
        double elapsed = (now - firstStart) / 1e9;
        String eta = share <= 0.01 ? "ETA --" : "ETA " + seconds(elapsed * (1 - share) / share);
        env.err().print("\rdlprof-lint: reading " + what + " [" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] "
                + String.format(Locale.ROOT, "%3d%%", (int) Math.floor(share * 100)) + "  " + eta + "\u001b[K");
        env.err().flush();
        barShown = true;
    }

    private static String seconds(double s) {
        if (s < 60) return String.format(Locale.ROOT, "%.0f s", Math.ceil(s));
        return String.format(Locale.ROOT, "%d min %02d s", (long) s / 60, (long) s % 60);
    }

    private void clearBar() {
        if (!barShown) return;
        env.err().print("\r\u001b[K");
        env.err().flush();
        barShown = false;
    }

    private void line(String s) {
        clearBar();
        env.err().println("dlprof-lint: " + s);
        env.err().flush();
    }
}
