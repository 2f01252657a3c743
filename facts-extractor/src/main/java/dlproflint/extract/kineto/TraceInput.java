package dlproflint.extract.kineto;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Opens a trace for reading, decompressing gzip by content (magic bytes, not the file name). The
 * decompressed size is bounded relative to the compressed size, so a gzip bomb fails quickly
 * instead of running for ever.
 */
final class TraceInput {
    /**
     * Real traces compress 10-30x (the corpus's highest is 30x); 100x leaves room for unusually repetitive
     * ones, while a gzip of identical events (250x and more) is refused before it is read.
     */
    static final long MAX_EXPANSION_RATIO = 100;
    /** Allow small files a generous absolute budget before the ratio applies. */
    static final long MIN_BUDGET_BYTES = 64L * 1024 * 1024;

    private TraceInput() {
    }

    static InputStream open(Path file) throws IOException {
        return open(file, dlproflint.extract.ReadProgress.NONE);
    }

    /** @param progress told the file bytes read so far, every megabyte or so */
    static InputStream open(Path file, dlproflint.extract.ReadProgress progress) throws IOException {
        InputStream source = Files.newInputStream(file);
        if (progress != dlproflint.extract.ReadProgress.NONE) source = new Counting(source, Files.size(file), progress);
        InputStream raw = new BufferedInputStream(source, 1 << 16);
        raw.mark(2);
        int b0 = raw.read();
        int b1 = raw.read();
        raw.reset();
        if (b0 == 0x1f && b1 == 0x8b) {
            long budget = Math.max(MIN_BUDGET_BYTES, Files.size(file) * MAX_EXPANSION_RATIO);
            return new BufferedInputStream(new Bounded(new GZIPInputStream(raw, 1 << 16), budget), 1 << 16);
        }
        return raw;
    }

    /** Reports the bytes read from the file, at most once per {@link #STEP} bytes. */
    private static final class Counting extends FilterInputStream {
        static final long STEP = 1 << 20;
        private final long total;
        private final dlproflint.extract.ReadProgress progress;
        private long count;
        private long reported;

        Counting(InputStream in, long total, dlproflint.extract.ReadProgress progress) {
            super(in);
            this.total = total;
            this.progress = progress;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) advance(1);
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            if (n > 0) advance(n);
            return n;
        }

        private void advance(long n) {
            count += n;
            if (count - reported >= STEP || count >= total) {
                reported = count;
                progress.update(Math.min(count, total), total);
            }
        }
    }

    /** Thrown when decompression exceeds its budget. */
    static final class ExpansionLimitException extends IOException {
        ExpansionLimitException(long budget) {
            super("gzip data expands beyond " + budget / (1024 * 1024) + " MiB (more than " + MAX_EXPANSION_RATIO
                    + "x the file size): not a profiler trace");
        }
    }

    private static final class Bounded extends FilterInputStream {
        private final long budget;
        private long count;

        Bounded(InputStream in, long budget) {
            super(in);
            this.budget = budget;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0 && ++count > budget) throw new ExpansionLimitException(budget);
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            if (n > 0 && (count += n) > budget) throw new ExpansionLimitException(budget);
            return n;
        }
    }
}
