package dlproflint.extract.nsys;

import dlproflint.extract.common.LongIntMap;

/**
 * Values by a long key, for the last {@code limit} keys put: putting a new key past the limit removes the key put
 * longest ago (putting a key again replaces its value and keeps its place), as a {@link java.util.LinkedHashMap} in
 * insertion order that removes its eldest entry would, without a boxed key and an entry object a key (the correlation
 * pass puts every forward op's sequence number: a million on a 1M-launch export).
 *
 * @param <V> the values
 */
final class RecentBySeq<V> {
    private final LongIntMap slots = new LongIntMap();
    /** the keys and values in the order their keys were first put, a ring from {@link #head} */
    private final long[] keys;
    private final Object[] values;
    private final int limit;
    private int head;
    private int size;

    RecentBySeq(int limit) {
        this.limit = limit;
        keys = new long[limit + 1];
        values = new Object[limit + 1];
    }

    void put(long key, V value) {
        int at = slots.get(key, -1);
        if (at >= 0) {
            values[at] = value;
            return;
        }
        at = (head + size) % keys.length;
        keys[at] = key;
        values[at] = value;
        slots.put(key, at);
        if (++size > limit) {
            slots.remove(keys[head]);
            values[head] = null;
            head = (head + 1) % keys.length;
            size--;
        }
    }

    /** The key's value, or null. */
    @SuppressWarnings("unchecked")
    V get(long key) {
        int at = slots.get(key, -1);
        return at < 0 ? null : (V) values[at];
    }

    int size() {
        return size;
    }
}
