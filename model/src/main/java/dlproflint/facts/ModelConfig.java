package dlproflint.facts;

/**
 * Framework settings recorded in the profile (DLProf's PyTorch plugin writes a
 * {@code {"model_config": {...}}} NVTX mark; DLProf databases hold {@code read_only_model_config};
 * Kineto traces record DataLoader workers). A null field was not recorded.
 */
public record ModelConfig(Integer numWorkers, Boolean pinMemory, Boolean cudnnBenchmark,
                          Boolean detectAnomaly, Boolean gradcheck, Boolean gradgradcheck,
                          Boolean autogradProfile, Boolean emitNvtx, Boolean ampEnabled) {
    public static ModelConfig unknown() {
        return new ModelConfig(null, null, null, null, null, null, null, null, null);
    }
}
