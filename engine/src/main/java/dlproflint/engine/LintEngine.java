package dlproflint.engine;

import dlproflint.facts.ProfileFacts;

import java.util.List;

/**
 * The rule engine: a Drools KieBase built from rule packs, applied to one profile's facts at a time.
 * Thread-safe: {@link #lint} opens a fresh session per call, so profiles can be linted in parallel.
 */
public final class LintEngine {
    // Placeholder signatures agreed between modules; the engine implementation replaces the bodies.
    private LintEngine() {
    }

    public static LintEngine load(EngineOptions options) throws RuleLoadException {
        throw new UnsupportedOperationException("engine not implemented yet");
    }

    public List<PackInfo> packs() {
        throw new UnsupportedOperationException("engine not implemented yet");
    }

    public List<RuleMetadata> rules() {
        throw new UnsupportedOperationException("engine not implemented yet");
    }

    public List<Finding> lint(ProfileFacts facts) {
        throw new UnsupportedOperationException("engine not implemented yet");
    }
}
