package dlproflint.extract.common;

import java.util.Arrays;

/** Instances of one named range or op: start, end and thread in primitive columns (no object per instance). */
public final class StepInstances {
    private long[] starts = new long[4];
    private long[] ends = new long[4];
    private long[] threads = new long[4];
    private int size;

    public void add(long start, long end, long thread) {
        if (size == starts.length) {
            int n = size * 2;
            starts = Arrays.copyOf(starts, n);
            ends = Arrays.copyOf(ends, n);
            threads = Arrays.copyOf(threads, n);
        }
        starts[size] = start;
        ends[size] = Math.max(start, end);
        threads[size] = thread;
        size++;
    }

    public int size() {
        return size;
    }

    public long start(int i) {
        return starts[i];
    }

    public long end(int i) {
        return ends[i];
    }

    public long thread(int i) {
        return threads[i];
    }

    /** Copies every instance's start, end and thread into the columns given, from index {@code at} on. */
    void copyInto(long[] startsTo, long[] endsTo, long[] threadsTo, int at) {
        System.arraycopy(starts, 0, startsTo, at, size);
        System.arraycopy(ends, 0, endsTo, at, size);
        System.arraycopy(threads, 0, threadsTo, at, size);
    }
}
