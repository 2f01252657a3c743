package dlproflint.extract;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** The first bytes of a file, read once, so readers can recognise their format by content. */
public record FileSniff(byte[] head, long size) {
    private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    /** How Nsight Systems reports (.nsys-rep, and .qdrep before 2021.4) begin: the name of nsys' Tegra-era ancestor. */
    private static final byte[] NSYS_REPORT_MAGIC = "NVIDIA Tegra Profiler Report".getBytes(StandardCharsets.US_ASCII);

    public static FileSniff of(Path file) throws ProfileException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(4096);
            return new FileSniff(head, Files.size(file));
        } catch (IOException e) {
            throw new ProfileException(file, "cannot read file: " + e.getMessage(), e);
        }
    }

    public boolean isSqlite() {
        return startsWith(SQLITE_MAGIC);
    }

    private boolean startsWith(byte[] magic) {
        return head.length >= magic.length && Arrays.equals(Arrays.copyOf(head, magic.length), magic);
    }

    public boolean isNsysReport() {
        return startsWith(NSYS_REPORT_MAGIC);
    }

    public boolean isGzip() {
        return head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b;
    }

    /**
     * The first bytes read as text: no NUL, and no control character but tab, line feed, carriage return and form
     * feed (UTF-8 above ASCII counts as text). Profiles are binary (SQLite, nsys reports, gzip) or JSON.
     */
    public boolean looksLikeText() {
        if (head.length == 0) return false;
        for (byte b : head) {
            int c = b & 0xff;
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') return false;
            if (c == 0x7f) return false;
        }
        return true;
    }

    /** First non-blank character is '{' or '[' (a JSON document). */
    public boolean looksLikeJson() {
        for (byte b : head) {
            if (b == ' ' || b == '\n' || b == '\r' || b == '\t') continue;
            if ((b & 0xff) == 0xEF) continue; // UTF-8 BOM bytes
            if ((b & 0xff) == 0xBB || (b & 0xff) == 0xBF) continue;
            return b == '{' || b == '[';
        }
        return false;
    }
}
