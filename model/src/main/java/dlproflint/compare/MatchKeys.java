package dlproflint.compare;

/**
 * How ops and kernels of two profiles are matched, also across formats: an nsys {@code emit_nvtx} range
 * {@code aten::conv2d, seq = 12} is the Kineto op {@code aten::conv2d}; an nsys short kernel name
 * {@code vectorized_elementwise_kernel} is the Kineto name
 * {@code void at::native::vectorized_elementwise_kernel<4, ...>(int, ...)}.
 */
public final class MatchKeys {
    private MatchKeys() {
    }

    /** An op's name without the per-call annotations emit_nvtx appends ({@code , seq = N}, {@code , op_id = N}). */
    public static String op(String name) {
        if (name == null) return "";
        String s = name.strip();
        int comma = s.indexOf(", seq = ");
        if (comma < 0) comma = s.indexOf(", op_id = ");
        if (comma < 0) comma = s.indexOf(", sizes = ");
        return (comma < 0 ? s : s.substring(0, comma)).strip();
    }

    /** A kernel's base name: no return type, namespace, template arguments or parameter list. */
    public static String kernel(String name) {
        if (name == null) return "";
        String s = name.strip();
        if (s.startsWith("void ")) s = s.substring(5).strip();
        int cut = s.length();
        int depth = 0;
        // the first '<' or '(' at template depth 0 ends the qualified name ("operator<" is rare in kernels)
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c == '<' || c == '(') && depth == 0) {
                cut = i;
                break;
            }
        }
        s = s.substring(0, cut).strip();
        int colons = s.lastIndexOf("::");
        if (colons >= 0) s = s.substring(colons + 2);
        int space = s.lastIndexOf(' ');
        if (space >= 0) s = s.substring(space + 1);
        return s.isEmpty() ? name.strip() : s;
    }
}
