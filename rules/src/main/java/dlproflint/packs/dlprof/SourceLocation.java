package dlproflint.packs.dlprof;

import dlproflint.facts.OpFact;
import dlproflint.facts.StackFrame;

import java.util.List;
import java.util.Locale;

/**
 * The source line a finding about an op should point at: the user-code frame closest to the op.
 *
 * <p>Readers keep the stack in the order their source records it, and sources disagree: DLProf's
 * PyTorch plugin ({@code traceMarker}) lists the outermost call first ({@code train.py:42} calling
 * {@code model(x)}, then {@code net.py:25} calling {@code self.conv1}, then torch library frames), while
 * Kineto's {@code Call stack} lists the innermost first. Library frames (site-packages, the Python
 * standard library) are never what a user edits. So: when the stack starts in user code and ends in
 * library code it is outermost-first, and the last user frame is the one closest to the op; otherwise
 * the first user frame is. With no user frame at all, the op's first frame is kept.
 */
public final class SourceLocation {
    private SourceLocation() {
    }

    public static StackFrame of(OpFact op) {
        if (op == null) return null;
        List<StackFrame> s = op.stack();
        if (s.isEmpty()) return null;
        boolean outermostFirst = !library(s.get(0)) && library(s.get(s.size() - 1));
        if (outermostFirst) {
            for (int i = s.size() - 1; i >= 0; i--) if (!library(s.get(i))) return s.get(i);
        } else {
            for (StackFrame f : s) if (!library(f)) return f;
        }
        return s.get(0);
    }

    static boolean library(StackFrame f) {
        String p = f.file() == null ? "" : f.file().replace('\\', '/').toLowerCase(Locale.ROOT);
        return p.contains("site-packages/") || p.contains("dist-packages/") || p.contains("/lib/python")
                || p.startsWith("<") || p.contains("/torch/") || p.contains("/tensorflow/");
    }
}
