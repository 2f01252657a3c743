package dlproflint.facts;

import java.util.Locale;

/**
 * What a communication kernel does, and the one place that recognises one. Readers classify GPU kernels
 * with {@link #ofKernel}; where the profile says which collective the framework called (Kineto's
 * {@code Collective name} argument, a {@code nccl:all_to_all} annotation around the launch) {@link #ofOperation}
 * takes precedence, because NCCL runs several collectives with one kernel (all-to-all is a batch of
 * {@code SendRecv} kernels). Rule packs use the same class, so "communication" means the same everywhere.
 *
 * <p>Communication kernels recognised by name: NCCL and RCCL ({@code ncclKernel_*}, {@code ncclDevKernel_*},
 * {@code rccl*}), PyTorch symmetric memory ({@code multimem_all_reduce_kernel}, {@code one_shot_all_reduce_kernel},
 * {@code two_shot_all_reduce_kernel}, ...), DeepEP's expert-parallel dispatch/combine kernels, Habana/Ascend
 * {@code hccl*}. Everything else is compute (or memory, for copies), as in HTA's kernel classes plus the
 * non-NCCL communication kernels HTA counts as compute.
 */
public enum CollectiveKind {
    ALL_REDUCE("all-reduce"),
    ALL_GATHER("all-gather"),
    REDUCE_SCATTER("reduce-scatter"),
    ALL_TO_ALL("all-to-all"),
    SEND_RECV("send/recv"),
    BROADCAST("broadcast"),
    REDUCE("reduce"),
    /** a communication kernel whose collective the name does not tell ({@code ncclDevKernel_Generic}) */
    OTHER("other");

    private final String label;

    CollectiveKind(String label) {
        this.label = label;
    }

    /** How reports write it: {@code all-reduce}, {@code send/recv}. */
    public String label() {
        return label;
    }

    /** The communication kind of a GPU kernel from its (short or demangled) name, or null for a non-communication kernel. */
    public static CollectiveKind ofKernel(String kernelName) {
        if (kernelName == null) return null;
        String n = kernelName.toLowerCase(Locale.ROOT);
        boolean nccl = n.startsWith("nccl") || n.contains("ncclkernel") || n.contains("nccldevkernel")
                || n.startsWith("rccl") || n.startsWith("hccl");
        if (nccl) {
            CollectiveKind k = fromWords(n);
            return k == null ? OTHER : k;
        }
        if (isSymmetricMemory(n)) {
            CollectiveKind k = fromWords(n);
            return k == null ? ALL_REDUCE : k;
        }
        if (n.contains("deep_ep") || n.contains("dpsk::ep") || n.contains("deepep")) {
            return n.contains("notify") || n.contains("dispatch") || n.contains("combine") ? ALL_TO_ALL : OTHER;
        }
        return null;
    }

    /** Whether the kernel moves data between ranks ({@link #ofKernel} is not null). */
    public static boolean isCommunication(String kernelName) {
        return ofKernel(kernelName) != null;
    }

    /**
     * The collective a framework call names: Kineto's {@code Collective name} ({@code allreduce},
     * {@code _allgather_base}, {@code all_to_all}, {@code send}), an annotation ({@code nccl:all_reduce},
     * {@code nccl:_reduce_scatter_base}, {@code gloo:broadcast}) or a c10d op name; null when it names none.
     */
    public static CollectiveKind ofOperation(String name) {
        if (name == null || name.isBlank()) return null;
        String n = name.toLowerCase(Locale.ROOT);
        int colon = n.indexOf(':');
        if (colon >= 0 && colon < 8) n = n.substring(colon + 1); // nccl:, gloo:, ucc:, mpi:
        if (n.contains("barrier")) return ALL_REDUCE; // c10d implements barrier as a one-element all-reduce
        CollectiveKind k = fromWords(n);
        if (k != null) return k;
        if (n.contains("gather") || n.contains("scatter")) return SEND_RECV; // rooted gather/scatter: point-to-point
        return null;
    }

    private static boolean isSymmetricMemory(String n) {
        return n.contains("multimem_all_reduce") || n.contains("multimem_all_gather") || n.contains("multimem_reduce_scatter")
                || n.contains("one_shot_all_reduce") || n.contains("two_shot_all_reduce") || n.contains("symm_mem");
    }

    /** The collective in a lower-case name, with or without separators ({@code allreduce}, {@code all_reduce}, {@code AllReduce}). */
    private static CollectiveKind fromWords(String n) {
        String s = n.replace("_", "").replace("-", "").replace(" ", "");
        if (s.contains("reducescatter")) return REDUCE_SCATTER;
        if (s.contains("allreduce")) return ALL_REDUCE;
        if (s.contains("allgather")) return ALL_GATHER;
        if (s.contains("alltoall")) return ALL_TO_ALL;
        if (s.contains("sendrecv") || s.contains("send") || s.contains("recv")) return SEND_RECV;
        if (s.contains("broadcast") || s.contains("bcast")) return BROADCAST;
        if (s.contains("reduce")) return REDUCE;
        return null;
    }

    /** The kind whose {@link #label()} or constant name this is; IllegalArgumentException otherwise. */
    public static CollectiveKind parse(String s) {
        for (CollectiveKind k : values()) {
            if (k.label.equalsIgnoreCase(s) || k.name().equalsIgnoreCase(s)) return k;
        }
        throw new IllegalArgumentException("unknown collective kind '" + s + "'");
    }
}
