package dlproflint.extract.common;

/**
 * Open-addressing map from {@code long} keys to {@code int} values (e.g. External id → op index),
 * so linking a million events costs two arrays, not a million boxed entries. {@link Long#MIN_VALUE} is not a key.
 */
public final class LongIntMap {
    private static final long EMPTY = Long.MIN_VALUE;
    private long[] keys;
    private int[] values;
    private int size;

    public LongIntMap() {
        keys = new long[1 << 12];
        java.util.Arrays.fill(keys, EMPTY);
        values = new int[keys.length];
    }

    public void put(long key, int value) {
        if (key == EMPTY) return;
        if (size * 2 >= keys.length) grow();
        int i = slot(keys, key);
        if (keys[i] == EMPTY) {
            keys[i] = key;
            size++;
        }
        values[i] = value;
    }

    /** @return the value, or {@code missing} */
    public int get(long key, int missing) {
        if (key == EMPTY) return missing;
        int i = slot(keys, key);
        return keys[i] == EMPTY ? missing : values[i];
    }

    public int size() {
        return size;
    }

    /** Removes the key's entry, if any (the entries after it in its probe run move back: no tombstones). */
    public void remove(long key) {
        if (key == EMPTY) return;
        long[] k = keys;
        int mask = k.length - 1;
        int i = slot(k, key);
        if (k[i] == EMPTY) return;
        size--;
        // backward-shift deletion: each later entry of the run whose home is not between the hole and it moves in
        for (int j = (i + 1) & mask; k[j] != EMPTY; j = (j + 1) & mask) {
            int home = (int) (mix(k[j]) & mask);
            boolean stays = i <= j ? i < home && home <= j : i < home || home <= j;
            if (!stays) {
                k[i] = k[j];
                values[i] = values[j];
                i = j;
            }
        }
        k[i] = EMPTY;
    }

    private static int slot(long[] keys, long key) {
        int mask = keys.length - 1;
        int i = (int) (mix(key) & mask);
        while (keys[i] != EMPTY && keys[i] != key) i = (i + 1) & mask;
        return i;
    }

    private static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        return x;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        java.util.Arrays.fill(keys, EMPTY);
        values = new int[keys.length];
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != EMPTY) {
                int i = slot(keys, oldKeys[j]);
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
    }
}
