package dlproflint.facts;

/**
 * One kernel (matched by its base name across the two profiles, so an nsys short name meets a Kineto demangled
 * name) compared by {@code dlprof-lint compare}: its GPU time per step, and whether it appeared or vanished.
 *
 * @param key        the name the kernels were matched by
 * @param name       the head's kernel name (the base's when it vanished)
 * @param headOpId   the op that launched most of it in the head, or null
 * @param baseNs     base GPU time per step (0 when it appeared)
 * @param headNs     head GPU time per step (0 when it vanished)
 * @param baseStepNs the base's step (or run) duration
 * @param baseTc     a tensor-core kernel in the base
 * @param headTc     a tensor-core kernel in the head
 */
public record KernelDelta(String key, String name, String headOpId, double baseNs, double headNs,
                          double baseStepNs, boolean baseTc, boolean headTc) implements PerStepGrowth {
    public boolean appeared() {
        return baseNs <= 0 && headNs > 0;
    }

    public boolean vanished() {
        return headNs <= 0 && baseNs > 0;
    }
}
