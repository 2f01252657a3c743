package dlproflint.reporters.dlprof;

import dlproflint.facts.ProfileFacts;

/**
 * DLProf's column sets differ by framework: PyTorch runs have Op ID, Direction and Stack Trace
 * columns (DLProf 1.8 corpus); TensorFlow runs have no Direction and, in the detailed report, no Op ID
 * and Input Shapes instead of the stack trace (DLProf 0.x TF1 corpus).
 */
enum Layout {
    PYTORCH,
    TENSORFLOW;

    static Layout of(ProfileFacts facts) {
        String fw = facts.system().framework();
        return fw != null && fw.toLowerCase(java.util.Locale.ROOT).startsWith("tensorflow") ? TENSORFLOW : PYTORCH;
    }

    boolean hasDirection() {
        return this == PYTORCH;
    }
}
