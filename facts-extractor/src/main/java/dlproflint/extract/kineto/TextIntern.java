package dlproflint.extract.kineto;

/**
 * One String per distinct short text of a trace: event names, categories, phases and ids repeat millions of
 * times, so the parser takes them from here instead of allocating a String per field, and the aggregation's
 * hash lookups find their hash already cached. Looked up by the parser's character buffer, so a repeated
 * value allocates nothing. Bounded: long texts and texts beyond {@link #MAX_ENTRIES} are not kept. One
 * instance per parsing thread.
 */
final class TextIntern {
    static final int MAX_LENGTH = 256;
    static final int MAX_ENTRIES = 1 << 16;
    private final int maxLength;
    private final int maxEntries;
    /** characters that may still be kept, over all entries */
    private long charsLeft;
    private String[] table = new String[1 << 10];
    private int[] hashes = new int[1 << 10];
    private int size;

    /** Short texts: names, categories, phases, ids. */
    TextIntern() {
        this(MAX_LENGTH, MAX_ENTRIES, (long) MAX_LENGTH * MAX_ENTRIES);
    }

    /**
     * @param maxLength  longer texts are not kept
     * @param maxEntries at most this many distinct texts kept
     * @param maxChars   at most this many characters kept in all
     */
    TextIntern(int maxLength, int maxEntries, long maxChars) {
        this.maxLength = maxLength;
        this.maxEntries = maxEntries;
        this.charsLeft = maxChars;
    }

    String intern(char[] buf, int off, int len) {
        if (len > maxLength) return new String(buf, off, len);
        int h = 0;
        for (int i = 0; i < len; i++) h = 31 * h + buf[off + i]; // String.hashCode
        int mask = table.length - 1;
        int slot = (h ^ (h >>> 16)) & mask;
        for (String s = table[slot]; s != null; s = table[slot]) {
            if (hashes[slot] == h && same(s, buf, off, len)) return s;
            slot = (slot + 1) & mask;
        }
        String s = new String(buf, off, len);
        if (size < maxEntries && charsLeft >= len) {
            charsLeft -= len;
            table[slot] = s;
            hashes[slot] = h;
            if (++size * 2 > table.length) grow();
        }
        return s;
    }

    private static boolean same(String s, char[] buf, int off, int len) {
        if (s.length() != len) return false;
        for (int i = 0; i < len; i++) if (s.charAt(i) != buf[off + i]) return false;
        return true;
    }

    private void grow() {
        String[] oldTable = table;
        int[] oldHashes = hashes;
        table = new String[oldTable.length * 2];
        hashes = new int[oldTable.length * 2];
        int mask = table.length - 1;
        for (int i = 0; i < oldTable.length; i++) {
            if (oldTable[i] == null) continue;
            int slot = (oldHashes[i] ^ (oldHashes[i] >>> 16)) & mask;
            while (table[slot] != null) slot = (slot + 1) & mask;
            table[slot] = oldTable[i];
            hashes[slot] = oldHashes[i];
        }
    }
}
