package dlproflint.extract.nsys;

import dlproflint.extract.common.OpInstance;

/**
 * An NVTX range while it is open on its thread's stack. {@code owner} is the op instance that GPU work
 * launched directly inside this range belongs to (its own instance, an enclosing op's, or null).
 */
final class NvtxRange {
    final long start;
    final long end;
    final MarkerText marker;
    OpInstance owner;
    /** this range opened {@code owner} (and closes it) */
    boolean opensOwner;
    /** the owner is a PyTorch-level op (DLProf dict marker or aten range): nested ranges belong to it */
    boolean ownerIsFrameworkOp;

    NvtxRange(long start, long end, MarkerText marker) {
        this.start = start;
        this.end = end;
        this.marker = marker;
    }
}
