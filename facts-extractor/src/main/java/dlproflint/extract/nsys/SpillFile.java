package dlproflint.extract.nsys;

import dlproflint.io.ScratchFiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A temporary file the nsys reader's passes write rows to and read back ({@link NvtxSpool}, {@link RowTape}): what a
 * read of a large table keeps for a later pass, on disk rather than in the heap (a 10M-kernel export's rows would
 * outweigh everything else the reader holds). Created at the first write in the scratch folder ({@code TMPDIR} when
 * set, {@link ScratchFiles}); removed from it at once (on Linux; the open channel keeps the data), so not even a run
 * killed with SIGKILL leaves it behind. Written by appending
 * whole buffers; read back by {@link Reader}s, each over a list of the file's segments, as varints
 * ({@link Varint}) and bytes.
 */
final class SpillFile implements AutoCloseable {
    private final String prefix;
    private Path file;
    private FileChannel channel;
    /** the scratch folder it is made in (at the first write) */
    private Path dir;
    private long size;

    /** @param prefix the temporary file's name prefix (what it holds, for whoever lists the folder) */
    SpillFile(String prefix) {
        this.prefix = prefix;
    }

    /** Appends the buffer's remaining bytes; returns the offset they begin at. */
    long append(ByteBuffer b) throws IOException {
        long at = size;
        if (!b.hasRemaining()) return at;
        try {
            if (channel == null) {
                // in the run's scratch folder (TMPDIR when set, as every temporary file of the tool)
                dir = ScratchFiles.root(System.getenv());
                file = ScratchFiles.createFile(dir, prefix, ".tmp");
                channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                        StandardOpenOption.DELETE_ON_CLOSE);
                ScratchFiles.delete(file); // the name is gone already (DELETE_ON_CLOSE unlinks it on open)
            }
            while (b.hasRemaining()) size += channel.write(b, size);
        } catch (IOException e) {
            // "No space left on device" alone would not say where
            throw new IOException("cannot write its temporary files in " + dir + " (TMPDIR): " + e.getMessage(), e);
        }
        return at;
    }

    /** Bytes written so far. */
    long size() {
        return size;
    }

    /** The file (null until something was written). */
    Path path() {
        return file;
    }

    /** Forgets everything written. */
    void reset() throws IOException {
        if (channel != null) channel.truncate(0);
        size = 0;
    }

    /** Reads the bytes {@code [offset, offset + length)}. */
    Reader reader(long offset, long length, int buffer) {
        return reader(List.of(new long[] {offset, length}), buffer);
    }

    /** Reads the segments {@code {offset, length}} one after the other (a list that may still grow at its end). */
    Reader reader(List<long[]> segments, int buffer) {
        return new Reader(segments, buffer);
    }

    /** Sequential reads of some segments of the file, a buffer at a time. */
    final class Reader {
        private final List<long[]> segments;
        private final byte[] buf;
        private final ByteBuffer wrap;
        private int pos;
        private int limit;
        private int segment;
        /** bytes of the current segment read into the buffer so far */
        private long inSegment;

        private Reader(List<long[]> segments, int buffer) {
            this.segments = segments;
            this.buf = new byte[buffer];
            this.wrap = ByteBuffer.wrap(buf);
        }

        /** The next unsigned varint. */
        long getVar() throws IOException {
            int p = pos;
            if (limit - p >= 10) { // a whole varint in the buffer: no check per byte (most are one byte)
                byte[] a = buf;
                byte b = a[p++];
                long v = b & 0x7F;
                for (int shift = 7; b < 0; shift += 7) {
                    b = a[p++];
                    v |= (long) (b & 0x7F) << shift;
                }
                pos = p;
                return v;
            }
            return varAcrossFill();
        }

        private long varAcrossFill() throws IOException {
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                if (pos == limit) fill();
                byte b = buf[pos++];
                v |= (long) (b & 0x7F) << shift;
                if (b >= 0) return v;
            }
        }

        /** The next {@code n} bytes into {@code dst}. */
        void get(byte[] dst, int off, int n) throws IOException {
            while (n > 0) {
                if (pos == limit) fill();
                int k = Math.min(n, limit - pos);
                System.arraycopy(buf, pos, dst, off, k);
                pos += k;
                off += k;
                n -= k;
            }
        }

        private void fill() throws IOException {
            while (segment < segments.size() && inSegment >= segments.get(segment)[1]) {
                segment++;
                inSegment = 0;
            }
            if (segment >= segments.size()) throw new IOException(prefix + " file ended early");
            long[] s = segments.get(segment);
            int n = (int) Math.min(buf.length, s[1] - inSegment);
            wrap.clear().limit(n);
            while (wrap.hasRemaining()) {
                if (channel.read(wrap, s[0] + inSegment + wrap.position()) < 0) {
                    throw new IOException(prefix + " file ended early");
                }
            }
            inSegment += n;
            pos = 0;
            limit = n;
        }
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close(); // deletes the file
            channel = null;
        }
        if (file != null) Files.deleteIfExists(file);
    }
}
