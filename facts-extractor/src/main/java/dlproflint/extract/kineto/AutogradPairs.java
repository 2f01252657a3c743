package dlproflint.extract.kineto;

import dlproflint.extract.kineto.KinetoAggregator.OpAgg;
import dlproflint.facts.Direction;

import java.util.HashMap;
import java.util.Map;

/**
 * DLProf's op direction and pairing for a Kineto trace: an op is {@code bprop} when it ran as an autograd
 * backward node (or its name says so), and a backward node takes the type of the forward op whose sequence
 * number it carries (the forward op most of its calls pair with), so {@code ConvolutionBackward0} reports
 * as a {@code conv2d} op in the backward direction, as DLProf reported PyTorch ops. Kineto keeps every op
 * name as its own row: the backward node keeps its name, the aten ops it runs keep theirs.
 */
final class AutogradPairs {
    private final Direction[] direction;
    private final String[] type;

    AutogradPairs(KinetoAggregator a) {
        int n = a.opList.size();
        direction = new Direction[n];
        type = new String[n];
        for (OpAgg op : a.opList) {
            direction[op.index] = op.backward || KinetoNames.direction(op.name) == Direction.BPROP ? Direction.BPROP : Direction.FPROP;
            type[op.index] = KinetoNames.opType(op.name);
        }
        // (backward op, forward op) → calls; distinct pairs are few
        Map<Long, Integer> pairs = new HashMap<>();
        for (int i = 0; i < a.backwardOp.size(); i++) {
            int fwd = a.forwardBySeq.get(a.backwardSeq.get(i), -1);
            if (fwd >= 0) pairs.merge(((long) a.backwardOp.get(i) << 32) | fwd, 1, Integer::sum);
        }
        int[] best = new int[n];
        int[] chosen = new int[n];
        java.util.Arrays.fill(chosen, Integer.MAX_VALUE);
        for (Map.Entry<Long, Integer> e : pairs.entrySet()) {
            int bwd = (int) (e.getKey() >>> 32);
            int fwd = (int) (e.getKey() & 0xffffffffL);
            // most calls win; a tie goes to the forward op seen first, so the result does not depend on hashing
            if (e.getValue() > best[bwd] || e.getValue() == best[bwd] && fwd < chosen[bwd]) {
                best[bwd] = e.getValue();
                chosen[bwd] = fwd;
                type[bwd] = KinetoNames.opType(a.opList.get(fwd).name);
            }
        }
    }

    Direction direction(int op) {
        return direction[op];
    }

    /** The op's type, a backward node's being its forward op's. */
    String type(int op) {
        return type[op];
    }
}
