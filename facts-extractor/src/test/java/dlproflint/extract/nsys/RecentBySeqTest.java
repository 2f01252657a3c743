package dlproflint.extract.nsys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link RecentBySeq} keeps what a LinkedHashMap in insertion order that drops its eldest past the limit keeps. */
class RecentBySeqTest {
    private static Map<Long, String> reference(int limit) {
        return new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
                return size() > limit;
            }
        };
    }

    @Test
    void keepsTheLastKeysPutAsALinkedHashMapDoes() {
        for (long seed = 1; seed <= 4; seed++) {
            Random r = new Random(seed);
            int limit = 1 + r.nextInt(300);
            Map<Long, String> expected = reference(limit);
            RecentBySeq<String> got = new RecentBySeq<>(limit);
            // mostly rising numbers (forward ops), some repeated and some far back; keys colliding in the map's probe
            // runs (multiples of a power of two) exercise its removal
            long next = 0;
            for (int i = 0; i < 200_000; i++) {
                long key = switch (r.nextInt(6)) {
                    case 0 -> next - r.nextInt(2 * limit + 1);
                    case 1 -> (long) r.nextInt(64) << 12;
                    default -> next++;
                };
                String value = "v" + i;
                expected.put(key, value);
                got.put(key, value);
                long probe = next - r.nextInt(3 * limit + 2);
                assertEquals(expected.get(probe), got.get(probe), "seed " + seed + ", step " + i + ", key " + probe);
            }
            assertEquals(expected.size(), got.size());
            for (Map.Entry<Long, String> e : expected.entrySet()) assertEquals(e.getValue(), got.get(e.getKey()));
        }
    }

    @Test
    void aKeyPutAgainKeepsItsPlace() {
        RecentBySeq<String> m = new RecentBySeq<>(2);
        m.put(1, "a");
        m.put(2, "b");
        m.put(1, "c"); // replaced, still the eldest
        m.put(3, "d");
        assertNull(m.get(1));
        assertEquals("b", m.get(2));
        assertEquals("d", m.get(3));
    }
}
