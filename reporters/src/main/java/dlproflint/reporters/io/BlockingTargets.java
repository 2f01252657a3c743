package dlproflint.reporters.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writing to a target that can block for ever: a named pipe (FIFO) waits in {@code open} until a process opens it
 * for reading, and a pipe or device whose reader stopped reading waits in {@code write}. Both waits are bounded
 * here by one time limit ({@link #DEFAULT_LIMIT}; {@code DLPROF_LINT_OUTPUT_TIMEOUT} in the CLI):
 * <ul>
 *   <li>the open runs on a helper thread; when it has not returned in time, this thread opens the FIFO's other end
 *       itself (which completes the helper's open at once), both ends are closed, and the target is refused as a
 *       pipe nobody read;</li>
 *   <li>writes go through an interruptible {@link FileChannel}; a watchdog interrupts a write that has made no
 *       progress for the limit, which closes the channel, and the write fails naming the target.</li>
 * </ul>
 */
final class BlockingTargets {
    /** How long an output may wait for a reader, or for its reader to take more bytes. */
    static final Duration DEFAULT_LIMIT = Duration.ofSeconds(30);

    private BlockingTargets() {
    }

    /** Opens {@code path} (a FIFO or device) for writing within {@code limit}, as a stream whose writes may stall at most that long. */
    static OutputStream open(Path given, Path path, Duration limit, StandardOpenOption... options) throws IOException {
        FileChannel channel = fifo(path) ? openWithin(given, path, limit, options) : channel(given, path, options);
        return new Watched(given, channel, limit);
    }

    private static FileChannel channel(Path given, Path path, StandardOpenOption... options) throws OutputWriteException {
        try {
            return FileChannel.open(path, options);
        } catch (IOException e) {
            throw new OutputWriteException(given, e);
        }
    }

    private static FileChannel openWithin(Path given, Path path, Duration limit, StandardOpenOption... options) throws IOException {
        CompletableFuture<FileChannel> opening = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                opening.complete(FileChannel.open(path, options));
            } catch (Throwable e) { // NOPMD: handed to the waiting thread
                opening.completeExceptionally(e);
            }
        }, "dlprof-lint-fifo-open");
        t.setDaemon(true);
        t.start();
        try {
            return opening.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // open the reading end ourselves: the writer's open then returns, and both ends are closed again
            try {
                FileChannel reader = FileChannel.open(path, StandardOpenOption.READ);
                try {
                    opening.join().close();
                } finally {
                    reader.close();
                }
            } catch (RuntimeException | IOException ignored) {
                // the helper failed or was already done; nothing is left open either way
            }
            throw new OutputWriteException(given, "is a named pipe (FIFO) that no process opened for reading within "
                    + seconds(limit) + " (start its reader first, or raise DLPROF_LINT_OUTPUT_TIMEOUT)");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw new OutputWriteException(given, cause instanceof IOException io ? io : new IOException(cause));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while opening " + given);
        }
    }

    private static boolean fifo(Path path) {
        try {
            int mode = (Integer) Files.getAttribute(path, "unix:mode");
            return (mode & 0170000) == 0010000;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return false;
        }
    }

    static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /**
     * A stream over an interruptible channel whose every write is watched: one that has not returned after the
     * limit is interrupted (closing the channel), and fails naming the target.
     */
    private static final class Watched extends OutputStream {
        private final Path target;
        private final FileChannel channel;
        private final Duration limit;
        /** when the running write started (nanoTime), or 0 when none runs */
        private final AtomicLong writingSince = new AtomicLong();
        private volatile Thread writer;
        private volatile boolean stalled;
        private final Thread watchdog;

        Watched(Path target, FileChannel channel, Duration limit) {
            this.target = target;
            this.channel = channel;
            this.limit = limit;
            this.watchdog = new Thread(this::watch, "dlprof-lint-output-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
        }

        private void watch() {
            long step = Math.max(10, Math.min(1000, limit.toMillis() / 10));
            while (channel.isOpen()) {
                long since = writingSince.get();
                Thread w = writer;
                if (since != 0 && w != null && System.nanoTime() - since > limit.toNanos()) {
                    stalled = true;
                    w.interrupt();
                    return;
                }
                try {
                    Thread.sleep(step);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b, off, len);
            writer = Thread.currentThread();
            try {
                while (buf.hasRemaining()) {
                    writingSince.set(System.nanoTime());
                    channel.write(buf);
                }
            } catch (ClosedByInterruptException e) {
                if (stalled) {
                    Thread.interrupted(); // the watchdog's interrupt is ours to clear
                    throw new OutputWriteException(target, "its reader took no data for " + seconds(limit)
                            + " (a pipe whose reader stopped reading?)");
                }
                throw e;
            } finally {
                writingSince.set(0);
            }
        }

        @Override
        public void close() throws IOException {
            watchdog.interrupt();
            channel.close();
        }
    }
}
