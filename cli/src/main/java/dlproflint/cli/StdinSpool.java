package dlproflint.cli;

import dlproflint.io.ScratchFiles;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Copies a profile arriving on standard input ({@code -}) to a scratch file, within bounds: standard input can be
 * endless ({@code < /dev/zero}), silent for ever (a pipe whose writer hangs), or fill the disk. The copy stops, and
 * the profile is refused (exit 3) with a line saying why, when
 * <ul>
 *   <li>it passes {@code DLPROF_LINT_STDIN_LIMIT} bytes (default {@link #DEFAULT_LIMIT}; {@code 512M}, {@code 20G});</li>
 *   <li>the scratch folder's file system would keep less than {@link #MIN_FREE} free;</li>
 *   <li>no byte arrives for {@code DLPROF_LINT_STDIN_TIMEOUT} seconds (default {@link #DEFAULT_IDLE}): the copy runs on
 *       a thread of its own, abandoned when it stalls (the process's exit does not wait for it);</li>
 *   <li>standard input is empty or closed: nothing was piped in.</li>
 * </ul>
 * The scratch file lives in {@code TMPDIR} ({@link ScratchFiles}), so SIGTERM and SIGINT remove it, and the next
 * run removes one a killed run left.
 */
final class StdinSpool {
    static final String PREFIX = "dlprof-lint-stdin-";
    static final long DEFAULT_LIMIT = 8L << 30;
    static final long MIN_FREE = 256L << 20;
    static final Duration DEFAULT_IDLE = Duration.ofSeconds(120);
    private static final int BUFFER = 1 << 16;
    private static final long FREE_CHECK_EVERY = 64L << 20;

    private StdinSpool() {
    }

    /** The scratch file holding all of standard input; the caller removes it ({@link ScratchFiles#delete}). */
    static Path spool(CliEnv env) throws CliException {
        long limit = size(env.getenv("DLPROF_LINT_STDIN_LIMIT"), DEFAULT_LIMIT, "DLPROF_LINT_STDIN_LIMIT");
        Duration idle = Durations.fromEnvironment(env, "DLPROF_LINT_STDIN_TIMEOUT", DEFAULT_IDLE);
        Path root = ScratchFiles.root(env.env());
        ScratchFiles.cleanStale(root, PREFIX);
        Path file;
        try {
            file = ScratchFiles.createFile(root, PREFIX, ".profile");
        } catch (IOException e) {
            throw new CliException(ExitCodes.PROFILE, "-: cannot make a temporary file for standard input in " + root
                    + " (set TMPDIR to a writable folder): " + e.getMessage());
        }
        try {
            long n = copy(env.in(), file, limit, idle);
            if (n == 0) {
                throw new CliException(ExitCodes.PROFILE, "-: standard input is empty (nothing was piped in, or it was closed)");
            }
            return file;
        } catch (CliException e) {
            ScratchFiles.delete(file);
            throw e;
        }
    }

    private static long copy(InputStream in, Path file, long limit, Duration idle) throws CliException {
        AtomicLong copied = new AtomicLong();
        AtomicLong lastProgress = new AtomicLong(System.nanoTime());
        String[] failure = new String[1];
        boolean[] done = new boolean[1];
        Thread t = new Thread(() -> {
            try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                byte[] buf = new byte[BUFFER];
                long nextFreeCheck = 0;
                for (int r; (r = in.read(buf)) >= 0; ) {
                    lastProgress.set(System.nanoTime());
                    if (r == 0) continue;
                    long total = copied.get() + r;
                    if (total > limit) {
                        failure[0] = "standard input holds more than " + human(limit) + " (DLPROF_LINT_STDIN_LIMIT); pass so large a "
                                + "profile as a file";
                        return;
                    }
                    if (total >= nextFreeCheck) {
                        long free = Files.getFileStore(file).getUsableSpace();
                        if (free - r < MIN_FREE) {
                            failure[0] = "copying standard input to " + file.getParent() + " would leave less than " + human(MIN_FREE)
                                    + " free there (set TMPDIR to a larger folder, or pass the profile as a file)";
                            return;
                        }
                        nextFreeCheck = total + FREE_CHECK_EVERY;
                    }
                    out.write(buf, 0, r);
                    copied.set(total);
                }
            } catch (IOException e) {
                failure[0] = "cannot copy standard input to " + file + ": " + e.getMessage();
            } finally {
                synchronized (done) {
                    done[0] = true;
                    done.notifyAll();
                }
            }
        }, "dlprof-lint-stdin");
        t.setDaemon(true);
        t.start();
        synchronized (done) {
            while (!done[0]) {
                long quiet = System.nanoTime() - lastProgress.get();
                if (quiet > idle.toNanos()) {
                    throw new CliException(ExitCodes.PROFILE, "-: no data arrived on standard input for " + idle.toSeconds()
                            + " s after " + human(copied.get()) + " (DLPROF_LINT_STDIN_TIMEOUT); is anything writing to it?");
                }
                try {
                    done.wait(Math.max(1, Math.min(1000, (idle.toNanos() - quiet) / 1_000_000)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CliException(ExitCodes.PROFILE, "-: interrupted while reading standard input");
                }
            }
        }
        if (failure[0] != null) throw new CliException(ExitCodes.PROFILE, "-: " + failure[0]);
        return copied.get();
    }

    static String human(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) return (bytes >> 30) + " GiB";
        if (bytes >= 1L << 20) return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
        if (bytes >= 1L << 10) return String.format(Locale.ROOT, "%.0f KiB", bytes / 1024.0);
        return bytes + " bytes";
    }

    /** {@code 4096}, {@code 64K}, {@code 512M}, {@code 20G}; null or blank: the default. */
    static long size(String value, long fallback, String name) throws CliException {
        if (value == null || value.isBlank()) return fallback;
        String v = value.strip().toUpperCase(Locale.ROOT);
        long unit = 1;
        char last = v.charAt(v.length() - 1);
        if (last == 'K' || last == 'M' || last == 'G' || last == 'T') {
            unit = 1L << (10 * ("KMGT".indexOf(last) + 1));
            v = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(v);
            if (n <= 0 || n > Long.MAX_VALUE / unit) throw new NumberFormatException();
            return n * unit;
        } catch (NumberFormatException e) {
            throw CliException.usage(name + "=" + value + " is not a size (bytes, or a number with K, M, G or T)");
        }
    }
}
