package dlproflint.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;

/**
 * The process's stdout or stderr as a {@link PrintStream} that remembers why a write failed.
 * {@code PrintStream} swallows I/O errors and keeps only a flag ({@link PrintStream#checkError()}); the
 * command checks it at the end of every run, so output lost to a full disk, a closed stdout or a broken
 * pipe is an error (exit 2, one line on stderr) rather than a silent exit 0.
 */
final class StdStream extends PrintStream {
    private final Recording recording;

    private StdStream(Recording recording, Charset charset) {
        super(new BufferedOutputStream(recording, 1 << 13), false, charset);
        this.recording = recording;
    }

    static StdStream of(FileDescriptor fd, String encodingProperty) {
        String enc = System.getProperty(encodingProperty);
        Charset cs;
        try {
            cs = enc == null ? Charset.defaultCharset() : Charset.forName(enc);
        } catch (RuntimeException e) {
            cs = Charset.defaultCharset();
        }
        return new StdStream(new Recording(new FileOutputStream(fd)), cs);
    }

    /**
     * Why writing to {@code stream} failed, or null when it did not (flushes first). Works on any
     * PrintStream; only a {@code StdStream} knows the reason.
     */
    static String failure(PrintStream stream) {
        if (!stream.checkError()) return null;
        String why = stream instanceof StdStream s ? s.recording.failure : null;
        return why == null ? "write error" : why;
    }

    private static final class Recording extends FilterOutputStream {
        private volatile String failure;

        Recording(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw record(e);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw record(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw record(e);
            }
        }

        private IOException record(IOException e) {
            if (failure == null) failure = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return e;
        }
    }
}
