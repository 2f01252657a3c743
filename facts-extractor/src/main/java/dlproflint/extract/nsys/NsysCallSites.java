package dlproflint.extract.nsys;

import dlproflint.extract.common.SiteVotes;
import dlproflint.extract.common.TrainingLoop;
import dlproflint.facts.CallSites;
import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.StackFrame;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The call stacks an nsys export offers, joined: DLProf PyTorch plugin markers give ops their stack while the
 * ranges are read; CUDA backtraces ({@link CudaBacktraces}) give the rest of the ops (GPU work outside any range
 * included) the stack of their dominant kernel's launches, and the CUDA APIs theirs.
 */
final class NsysCallSites {
    record Result(List<OpFact> ops, CallSites sites) {
    }

    private NsysCallSites() {
    }

    /**
     * @param markerApis per API name, the marker stacks of the ops it was called in (from the correlation pass)
     */
    static Result of(NsysDatabase db, List<OpFact> ops, List<KernelFact> kernels,
                     Map<String, SiteVotes<List<StackFrame>>> markerApis) throws SQLException {
        boolean markers = ops.stream().anyMatch(o -> !o.stack().isEmpty());
        CudaBacktraces.Result bt = CudaBacktraces.present(db) ? CudaBacktraces.read(db) : null;
        List<OpFact> out = ops;
        if (bt != null && !bt.kernels().isEmpty()) {
            Map<String, KernelFact> top = new HashMap<>();
            for (KernelFact k : kernels) top.merge(k.opId(), k, (a, b) -> a.gpuTime().total() >= b.gpuTime().total() ? a : b);
            out = new ArrayList<>(ops.size());
            for (OpFact op : ops) {
                KernelFact k = top.get(op.id());
                List<StackFrame> s = op.stack().isEmpty() && k != null ? bt.kernels().get(k.name()) : null;
                out.add(s == null ? op : op.withStack(s));
            }
        }
        boolean backtraces = bt != null && !bt.empty();
        if (!markers && !backtraces) {
            return new Result(out, CallSites.none(bt == null ? null
                    : "the export has a CUDA_CALLCHAINS table but no backtrace on any CUDA call: record with nsys profile "
                    + "--cudabacktrace=all (CPU sampling must be on) --python-backtrace=cuda"));
        }
        String source = markers && backtraces ? "DLProf PyTorch markers and nsys CUDA backtraces"
                : markers ? "DLProf PyTorch markers" : "nsys CUDA backtraces";
        String hint = backtraces && !bt.anyPythonFrame()
                ? "the CUDA backtraces hold native frames only: add --python-backtrace=cuda to nsys profile" : null;
        Map<String, List<StackFrame>> apis = new TreeMap<>();
        markerApis.forEach((api, votes) -> apis.put(api, votes.best()));
        if (backtraces) apis.putAll(bt.apis());
        return new Result(out, new CallSites(source, hint, TrainingLoop.site(out), apis));
    }
}
