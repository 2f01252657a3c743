package dlproflint.findings;

import dlproflint.facts.CallSites;
import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.StackFrame;
import dlproflint.facts.StackFrames;

import java.util.List;

/**
 * Where a finding points in the model's code, decided once: the engine attaches it to every finding whose rule
 * gave none, SARIF draws the chain from it, and the text report says why a finding has no line. The stack comes
 * from the finding's subject: an op's own stack, a kernel's launching op, a CUDA API's call site, and for
 * findings about the whole profile, a GPU or the iterations, the training loop ({@link CallSites#step()}).
 */
public final class SourceLines {
    private SourceLines() {
    }

    /** The chain from the model's code to the GPU: the stack (innermost first), the op and the kernel, where known. */
    public record Chain(List<StackFrame> stack, OpFact op, KernelFact kernel) {
        public StackFrame userFrame() {
            return StackFrames.firstUser(stack);
        }
    }

    /** The model's own line behind the subject, or null. */
    public static StackFrame locate(Subject subject, ProfileFacts facts) {
        return chain(subject, facts).userFrame();
    }

    public static Chain chain(Subject subject, ProfileFacts facts) {
        if (subject == null || facts == null) return new Chain(List.of(), null, null);
        String key = subject.key() == null ? "" : subject.key();
        CallSites sites = facts.callSites();
        switch (subject.kind() == null ? "" : subject.kind()) {
            case "op" -> {
                OpFact op = op(facts, key);
                return new Chain(op == null ? List.of() : op.stack(), op, op == null ? null : topKernel(facts, op.id()));
            }
            case "kernel" -> {
                KernelFact k = kernel(facts, key);
                OpFact op = k == null ? null : op(facts, k.opId());
                return new Chain(op == null ? List.of() : op.stack(), op, k);
            }
            case "api" -> {
                int space = key.indexOf(' ');
                return new Chain(sites.api(space < 0 ? key : key.substring(0, space)), null, null);
            }
            default -> {
                return new Chain(sites.step(), null, null);
            }
        }
    }

    /**
     * Why a finding has no source line, for the text report; null when it has one. Names what to record next
     * time when the profile holds no call stacks at all.
     */
    public static String whyNone(Finding f, ProfileFacts facts) {
        if (f.location() != null && f.location().file() != null) return null;
        CallSites sites = facts.callSites();
        if (!sites.recorded()) return "no call stacks in this profile: " + hint(facts);
        Chain c = chain(f.subject(), facts);
        if (!c.stack().isEmpty()) {
            StackFrame inner = c.stack().get(0);
            return "its call stack holds library frames only (innermost: " + inner
                    + (inner.function() == null || inner.function().isBlank() ? "" : " in " + inner.function()) + ")"
                    + (sites.hint() == null ? "" : "; " + sites.hint());
        }
        String kind = f.subject() == null ? "profile" : f.subject().kind();
        return switch (kind) {
            case "op" -> "the profile recorded no call stack for this op (" + sites.source() + ")";
            case "kernel" -> "the profile recorded no call stack for the op that launched this kernel (" + sites.source() + ")";
            case "api" -> "the profile recorded no call stack for these API calls (" + sites.source() + ")";
            default -> "a finding about the whole run, and the profile shows no call site of the training loop ("
                    + sites.source() + ")";
        };
    }

    /** How to record call stacks in the profile's format (the reader's own hint first). */
    public static String hint(ProfileFacts facts) {
        if (facts.callSites().hint() != null) return facts.callSites().hint();
        String format = facts.profile().format() == null ? "" : facts.profile().format();
        return switch (format) {
            case "kineto" -> "record with torch.profiler.profile(with_stack=True)";
            case "nsys-sqlite" -> "record with nsys profile --cudabacktrace=all --python-backtrace=cuda, "
                    + "or with DLProf's PyTorch markers (nvidia_dlprof_pytorch_nvtx)";
            case "dlprof-db" -> "DLProf records stacks only with its PyTorch plugin (nvidia_dlprof_pytorch_nvtx.init())";
            default -> "this format records none";
        };
    }

    private static OpFact op(ProfileFacts f, String id) {
        if (id == null) return null;
        for (OpFact o : f.ops()) if (id.equals(o.id())) return o;
        return null;
    }

    /** The kernel of that name with the most GPU time (a kernel name can be launched by several ops). */
    private static KernelFact kernel(ProfileFacts f, String name) {
        KernelFact best = null;
        for (KernelFact k : f.kernels()) {
            if (name.equals(k.name()) && (best == null || k.gpuTime().total() > best.gpuTime().total())) best = k;
        }
        return best;
    }

    private static KernelFact topKernel(ProfileFacts f, String opId) {
        KernelFact best = null;
        for (KernelFact k : f.kernels()) {
            if (opId.equals(k.opId()) && (best == null || k.gpuTime().total() > best.gpuTime().total())) best = k;
        }
        return best;
    }
}
