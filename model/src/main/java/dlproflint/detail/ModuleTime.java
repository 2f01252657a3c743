package dlproflint.detail;

/**
 * Time spent in one {@code nn.Module} (PyTorch's {@code with_modules=True} records a range per module call).
 *
 * @param path    the module and its parents, outermost first ({@code GPT_0/Block_3/CausalSelfAttention_0})
 * @param depth   0 for a top-level module
 * @param calls   calls in the trace
 * @param totalNs host time inside the module, its children included
 * @param selfNs  host time inside it but in none of its children
 */
public record ModuleTime(String path, String name, int depth, long calls, long totalNs, long selfNs)
        implements java.io.Serializable {
    /** The most modules kept (the longest). */
    public static final int MAX = 500;
}
