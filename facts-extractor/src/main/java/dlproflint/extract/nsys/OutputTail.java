package dlproflint.extract.nsys;

import dlproflint.findings.OneLine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A child process's output, read to its end on a thread of its own and kept only as its last {@value #KEEP} bytes:
 * enough for the last line a message quotes, whatever the process writes (3 GB to stdout and 500 MB to stderr cost
 * nothing here). Reading it to the end also keeps the process from blocking on a full pipe.
 */
final class OutputTail {
    static final int KEEP = 64 * 1024;
    private final byte[] ring = new byte[KEEP];
    private long written;
    private final Thread reader;

    private OutputTail(InputStream in) {
        reader = new Thread(() -> {
            byte[] buf = new byte[8192];
            try (in) {
                for (int n; (n = in.read(buf)) > 0; ) append(buf, n);
            } catch (IOException e) {
                // the process ended or was killed: what arrived is kept
            }
        }, "dlprof-lint-nsys-output");
        reader.setDaemon(true);
    }

    static OutputTail drain(InputStream in) {
        OutputTail t = new OutputTail(in);
        t.reader.start();
        return t;
    }

    private synchronized void append(byte[] buf, int n) {
        for (int i = 0; i < n; i++) ring[(int) ((written + i) % KEEP)] = buf[i];
        written += n;
    }

    /** Waits a moment for the rest of the output of a process that has ended. */
    void await() throws InterruptedException {
        reader.join(5_000);
    }

    /** {@code ": <last non-empty line>"} of what was kept, or empty. */
    synchronized String lastLine() {
        int len = (int) Math.min(written, KEEP);
        byte[] tail = new byte[len];
        for (int i = 0; i < len; i++) tail[i] = ring[(int) ((written - len + i) % KEEP)];
        String text = new String(tail, StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) return "";
        int nl = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
        String last = text.substring(nl + 1);
        long controls = last.chars().filter(c -> c < 0x20 || c == 0xFFFD).count();
        if (controls * 2 > last.length()) return " (its output ends in binary data, not a message)";
        return ": " + OneLine.of(last);
    }
}
