package dlproflint.extract.kineto;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** How Kineto names things: op types, directions, data types, memcpy kinds, DataLoader workers. */
final class KinetoNames {
    private static final Pattern MEMCPY = Pattern.compile("Memcpy (\\w+) \\((\\w+) -> (\\w+)\\)");
    private static final Pattern MEMSET = Pattern.compile("Memset \\((\\w+)\\)");
    private static final Pattern FRAME = Pattern.compile("^(.*)\\((\\d+)\\): ?(.*)$");

    private KinetoNames() {
    }

    /** {@code 0} for the single-process iterator, {@code -1} (some workers) for the multiprocessing one, else null. */
    static Integer dataLoaderWorkers(String name) {
        if (name.contains("_SingleProcessDataLoaderIter")) return 0;
        if (name.contains("_MultiProcessingDataLoaderIter")) return -1;
        return null;
    }

    /** Op type: the name without namespace, lower case: {@code aten::conv2d} → {@code conv2d}. */
    static String opType(String name) {
        String n = name;
        int colon = n.lastIndexOf(": ");
        if (colon >= 0) n = n.substring(colon + 2);
        int ns = n.lastIndexOf("::");
        if (ns >= 0) n = n.substring(ns + 2);
        return n.trim().toLowerCase(Locale.ROOT);
    }

    static dlproflint.facts.Direction direction(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.contains("backward") ? dlproflint.facts.Direction.BPROP : dlproflint.facts.Direction.FPROP;
    }

    /** First tensor element type of {@code Input type} (e.g. {@code ["float", "Scalar"]}) as a DLProf dtype. */
    static String dataType(String inputTypes) {
        if (inputTypes == null) return null;
        for (String raw : inputTypes.replace("[", "").replace("]", "").split(",")) {
            String t = raw.replace("\"", "").trim();
            String mapped = switch (t) {
                case "float" -> "float32";
                case "double" -> "float64";
                case "c10::Half" -> "float16";
                case "c10::BFloat16" -> "bfloat16";
                case "c10::Float8_e4m3fn" -> "float8_e4m3fn";
                case "c10::Float8_e5m2" -> "float8_e5m2";
                case "int", "long int", "long" -> null; // indices, not compute precision
                default -> null;
            };
            if (mapped != null) return mapped;
        }
        return null;
    }

    /** {@code [copyKind, srcKind, dstKind]} of a memcpy activity name, or unknowns. */
    static String[] memcpyKinds(String name) {
        Matcher m = MEMCPY.matcher(name == null ? "" : name);
        if (m.find()) return new String[] {m.group(1), m.group(2), m.group(3)};
        return new String[] {"unknown", "Unknown", "Unknown"};
    }

    static String memsetKind(String name) {
        Matcher m = MEMSET.matcher(name == null ? "" : name);
        return m.find() ? m.group(1) : "Unknown";
    }

    /** One frame of a 1.9-style {@code Call stack} entry, {@code path/model.py(42): forward}. */
    static dlproflint.facts.StackFrame frame(String entry) {
        Matcher m = FRAME.matcher(entry.trim());
        if (!m.matches()) return new dlproflint.facts.StackFrame(entry.trim(), 0, "");
        return new dlproflint.facts.StackFrame(m.group(1), Integer.parseInt(m.group(2)), m.group(3));
    }

    static boolean isCollectiveKernel(String name) {
        return dlproflint.facts.CollectiveKind.isCommunication(name);
    }

    /** The collective a framework call names ({@code nccl:all_reduce}, {@code gloo:broadcast}), or null. */
    static dlproflint.facts.CollectiveKind collectiveCall(String name) {
        int colon = name.indexOf(':');
        if (colon < 3 || colon > 5 || name.startsWith("aten::")) return null;
        String backend = name.substring(0, colon);
        if (!(backend.equals("nccl") || backend.equals("gloo") || backend.equals("ucc") || backend.equals("mpi")
                || backend.equals("xccl") || backend.equals("hccl"))) {
            return null;
        }
        return dlproflint.facts.CollectiveKind.ofOperation(name);
    }

    /**
     * Message bytes of a collective from its metadata: the larger of the input and output element counts (an
     * all-gather's output, a reduce-scatter's input, as nccl-tests count sizes) times the element size; -1 when
     * the count or the type is missing.
     */
    static long messageBytes(long inNelems, long outNelems, String dtype) {
        long n = Math.max(inNelems, outNelems);
        int size = elementBytes(dtype);
        return n < 0 || size <= 0 ? -1 : n * size;
    }

    /**
     * Bytes of the tensors an op's {@code Input Dims} and {@code Input type} describe (a host-side collective's
     * message: {@code [[2411620]]} of {@code ["float"]} is 9.6 MB); -1 when a shape or type is missing or unknown.
     */
    static long tensorBytes(String inputDims, String inputTypes) {
        if (inputDims == null || inputTypes == null) return -1;
        String[] types = inputTypes.replace("[", "").replace("]", "").split(",");
        String[] tensors = inputDims.replace(" ", "").replace("[[", "[").replace("]]", "]").split("\\],?");
        long total = 0;
        boolean any = false;
        for (int i = 0; i < tensors.length && i < types.length; i++) {
            String dims = tensors[i].replace("[", "");
            if (dims.isEmpty()) continue; // a scalar or a non-tensor argument
            int size = elementBytes(types[i].replace("\"", "").trim());
            if (size <= 0) return -1;
            long n = 1;
            for (String d : dims.split(",")) {
                try {
                    n = Math.multiplyExact(n, Math.max(0, Long.parseLong(d)));
                } catch (NumberFormatException | ArithmeticException ex) {
                    return -1;
                }
            }
            total += n * size;
            any = true;
        }
        return any ? total : -1;
    }

    /**
     * Bytes per element of a c10 scalar type name ({@code Float}, {@code BFloat16}, {@code Float8_e4m3fn}) or of the
     * C++ type an op's {@code Input type} names ({@code float}, {@code long int}, {@code c10::Half}); 0 unknown.
     */
    static int elementBytes(String dtype) {
        if (dtype == null) return 0;
        String d = dtype.toLowerCase(java.util.Locale.ROOT).replace("c10::", "").replace("torch.", "");
        if (d.startsWith("float8") || d.equals("byte") || d.equals("char") || d.equals("bool") || d.equals("uint8") || d.equals("int8")
                || d.equals("unsigned char") || d.equals("signed char")) return 1;
        if (d.equals("half") || d.equals("bfloat16") || d.equals("short") || d.equals("float16") || d.equals("int16")
                || d.equals("short int")) return 2;
        if (d.equals("float") || d.equals("int") || d.equals("float32") || d.equals("int32") || d.equals("uint32")) return 4;
        if (d.equals("double") || d.equals("long") || d.equals("float64") || d.equals("int64") || d.equals("complexfloat")
                || d.equals("long int") || d.equals("int64_t") || d.equals("long long")) return 8;
        if (d.equals("complexdouble")) return 16;
        return 0;
    }

}
