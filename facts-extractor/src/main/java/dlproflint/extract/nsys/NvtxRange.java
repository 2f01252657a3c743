package dlproflint.extract.nsys;

import dlproflint.extract.common.OpInstance;

/**
 * An NVTX range while it is open on its thread's stack (the stack's object, filled again once the range is closed:
 * not to be kept). {@code owner} is the op instance that GPU work launched directly inside this range belongs to (its
 * own instance, an enclosing op's, or null).
 */
final class NvtxRange {
    long start;
    long end;
    MarkerText marker;
    /** its sequence number: {@code marker}'s, or its own where the marker is a shape its name's ranges share */
    long seq;
    /** a push/pop range (event type 59; a start/end range is not a call site of what runs inside it) */
    boolean pushPop;
    OpInstance owner;
    /** this range opened {@code owner} (and closes it) */
    boolean opensOwner;
    /** the owner is a PyTorch-level op (DLProf dict marker or aten range): nested ranges belong to it */
    boolean ownerIsFrameworkOp;

    /** Becomes the range given, with no owner yet (a {@link RangeStack} fills the objects of its closed ranges anew). */
    NvtxRange set(long start, long end, MarkerText marker, long seq, boolean pushPop) {
        this.start = start;
        this.end = end;
        this.marker = marker;
        this.seq = seq;
        this.pushPop = pushPop;
        owner = null;
        opensOwner = false;
        ownerIsFrameworkOp = false;
        return this;
    }

    /**
     * Whether a range that started at or before a child and ends at {@code parentEnd} is still open around a child
     * range {@code [childStart, childEnd]}, for per-thread stacks fed in (start, end descending) order. Ranges that
     * touch - one ends at the very nanosecond the next begins, as back-to-back {@code push/pop} pairs can - are
     * siblings: the first is closed when the second starts. Only an empty child at that instant lies inside.
     */
    static boolean encloses(long parentEnd, long childStart, long childEnd) {
        return childStart < parentEnd || childStart == parentEnd && childEnd <= childStart;
    }
}
