package dlproflint.extract.common;

/**
 * Phase timings of a read on stderr with {@code -Ddlproflint.timing=true} (the benchmarks' profile of where the
 * time goes): each phase's wall time and the CPU time of the whole process over it, which on a loaded machine
 * says more than the wall time and counts the other threads' work too. Off, it costs a clock read per phase.
 */
public final class PhaseTimer {
    /** {@code -Ddlproflint.timing=true}: phases, and each SQLite query's stepping ({@link RowCursor}). */
    public static final boolean ON = Boolean.getBoolean("dlproflint.timing");
    private final String reader;
    private long t = System.nanoTime();
    private long cpu = ON ? cpuNs() : 0;

    /** @param reader the label of the lines ({@code nsys-reader}) */
    public PhaseTimer(String reader) {
        this.reader = reader;
    }

    /** The phase that just ended. */
    public void lap(String phase) {
        if (!ON) return;
        long now = System.nanoTime();
        long c = cpuNs();
        System.err.printf("%s: %-12s %6.2f s wall %6.2f s CPU (ends %.2f s after the JVM started)%n", reader, phase,
                (now - t) / 1e9, (c - cpu) / 1e9, java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1e3);
        t = now;
        cpu = c;
    }

    private static long cpuNs() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : 0;
    }
}
