package dlproflint.extract.nsys;

import java.nio.ByteBuffer;

/**
 * The temporary files' row encoding ({@link NvtxSpool}, {@link RowTape}): unsigned LEB128 varints, signed values
 * zigzag-encoded first, so the small deltas between neighbouring rows take a byte or two.
 */
final class Varint {
    private Varint() {
    }

    /** Writes {@code v} (unsigned) in 1 to 10 bytes; the buffer must have room for them. */
    static void put(ByteBuffer out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.put((byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.put((byte) v);
    }

    static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }
}
