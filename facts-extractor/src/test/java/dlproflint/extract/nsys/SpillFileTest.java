package dlproflint.extract.nsys;

import dlproflint.io.ScratchFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The reader's temporary file: made in the run's scratch folder and unlinked at once (nothing to leave behind), its
 * segments read back in the order given as varints and bytes, whichever buffer boundary a value straddles.
 */
class SpillFileTest {
    @Test
    void segmentsComeBackAsWrittenAndTheFileHasNoNameWhileInUse() throws IOException {
        Random r = new Random(3);
        try (SpillFile f = new SpillFile("dlprof-lint-test")) {
            assertNull(f.path(), "nothing made before the first write");
            List<long[]> segments = new ArrayList<>();
            List<Long> values = new ArrayList<>();
            List<byte[]> texts = new ArrayList<>();
            for (int s = 0; s < 5; s++) {
                ByteBuffer b = ByteBuffer.allocate(1 << 14);
                for (int i = 0; i < 300; i++) {
                    long v = i % 7 == 0 ? -1L >>> r.nextInt(64) : r.nextInt(300); // one to ten bytes each
                    Varint.put(b, v);
                    values.add(v);
                    byte[] t = new byte[r.nextInt(20)];
                    r.nextBytes(t);
                    Varint.put(b, t.length);
                    b.put(t);
                    texts.add(t);
                }
                b.flip();
                int n = b.remaining();
                segments.add(new long[] {f.append(b), n});
                f.append(ByteBuffer.wrap(new byte[] {1, 2, 3})); // bytes of no segment between them
            }
            assertEquals(ScratchFiles.root(System.getenv()), f.path().getParent(), "in the scratch folder (TMPDIR)");
            assertFalse(Files.exists(f.path()), "the name is removed as soon as the file is open");
            // a 13-byte buffer: most varints and texts straddle a refill
            SpillFile.Reader in = f.reader(segments, 13);
            for (int i = 0; i < values.size(); i++) {
                assertEquals(values.get(i), in.getVar(), "value " + i);
                byte[] t = new byte[(int) in.getVar()];
                in.get(t, 0, t.length);
                assertArrayEquals(texts.get(i), t, "text " + i);
            }
            assertThrows(IOException.class, in::getVar, "past the last segment");
            f.reset();
            assertEquals(0, f.size());
        }
    }
}
