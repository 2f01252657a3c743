package dlproflint.packs.pytorch;

/** The next step for each of HTA's idle causes. */
public final class IdleAdvice {
    private IdleAdvice() {
    }

    public static String forCause(String cause) {
        return switch (cause) {
            case "host wait" -> "The GPU waited for the host to launch work: find what the host does between launches "
                    + "(torch.profiler with with_stack=True; data loading: DataLoader(num_workers>0, pin_memory=True), "
                    + "syncs: .item(), launch overhead: torch.compile(model, mode=\"reduce-overhead\") or CUDA graphs).";
            case "kernel wait" -> "The GPU spent its idle time in the short gaps between queued kernels: fewer, larger "
                    + "kernels (torch.compile fusion, larger batches) or CUDA graphs remove per-kernel launch latency.";
            default -> "The GPU waited neither for the host nor for launches: look for dependencies on other streams, "
                    + "events or copies (communication not overlapped, cudaStreamWaitEvent, blocking memcpy) in the trace "
                    + "around the long gaps, and overlap them with compute.";
        };
    }
}
