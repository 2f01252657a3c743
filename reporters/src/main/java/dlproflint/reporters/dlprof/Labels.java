package dlproflint.reporters.dlprof;

import dlproflint.facts.Direction;
import dlproflint.facts.StackFrame;

import java.util.List;
import java.util.StringJoiner;

/** How DLProf spells fact values in its reports. */
final class Labels {
    private Labels() {
    }

    /** {@code fprop}/{@code bprop}; empty for ops without a direction (DLProf's unassociated ops). */
    static String direction(Direction d) {
        return d == null || d == Direction.NA ? null : d.label();
    }

    /** One {@code file:line} per line, in the order recorded (DLProf prints the user's call site first). */
    /** The stack as DLProf prints it: the entry point first (facts hold it innermost first). */
    static String stackTrace(List<StackFrame> stack) {
        StringJoiner j = new StringJoiner("\n");
        for (int i = stack.size() - 1; i >= 0; i--) j.add(stack.get(i).toString());
        return j.toString();
    }

    /**
     * GPU memory operations as some readers name them in kernel facts ({@code [CUDA memcpy HtoD]},
     * {@code [CUDA memset]}): DLProf's kernel and tensor-core reports list compute kernels only and
     * its summary counts memory operations in their own row.
     */
    static boolean isMemoryOperation(String kernelName) {
        if (kernelName == null) return false;
        String n = kernelName.trim();
        return n.startsWith("[CUDA memcpy") || n.startsWith("[CUDA memset") || n.startsWith("CUDA memcpy")
                || n.startsWith("CUDA memset") || n.startsWith("[Memcpy") || n.startsWith("[Memset");
    }
}
