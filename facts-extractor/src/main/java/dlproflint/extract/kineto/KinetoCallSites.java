package dlproflint.extract.kineto;

import dlproflint.extract.common.LongIntMap;
import dlproflint.extract.common.SiteVotes;
import dlproflint.facts.CallSites;
import dlproflint.facts.StackFrame;
import dlproflint.facts.StackFrames;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a Kineto trace's ops, CUDA API calls and steps were issued in the model's code, from the two sources the
 * profiler writes with {@code with_stack=True}:
 * <ul>
 *   <li>{@code Call stack} args (PyTorch 1.8-1.12): {@code file(line): func} frames, innermost first, on each op;</li>
 *   <li>{@code python_function} events (PyTorch 1.13+): one event per Python call, nested in time on the thread that
 *       made it, so the Python stack of an op is the chain of {@code python_function} events enclosing its start.</li>
 * </ul>
 * The streaming pass records, in primitive columns, the Python events (thread, start, end, name) and the points to
 * place in them (op calls, API calls, step starts); {@link #resolve} sorts them once per thread and sweeps them with
 * a stack of open Python calls, counting each op's and API's user frame ({@link SiteVotes}). Memory stays bounded:
 * at most {@link #MAX_PYTHON_EVENTS} Python events are kept (a warning says when more were dropped), and every op
 * and API keeps a few frames of its dominant call site ({@link StackFrames#MAX_FRAMES}).
 */
final class KinetoCallSites {
    /** Python events kept for the sweep (about 24 bytes each); beyond it the trace's stacks are partial. */
    static final int MAX_PYTHON_EVENTS = 2_000_000;

    private static final int OP = 0;
    private static final int API = 1;
    private static final int STEP = 2;

    private final List<String> threads = new ArrayList<>();
    private final Map<String, Integer> threadIndex = new HashMap<>();
    private final List<String> pyNames = new ArrayList<>();
    private final Map<String, Integer> pyNameIndex = new HashMap<>();

    private final IntColumn pyThread = new IntColumn();
    private final LongColumn pyStart = new LongColumn();
    private final LongColumn pyEnd = new LongColumn();
    private final IntColumn pyName = new IntColumn();
    long pythonDropped;

    /** Points to place: what they are (OP, API, STEP), which op or API, when, on which thread, with what weight. */
    private final IntColumn qKind = new IntColumn();
    private final IntColumn qTarget = new IntColumn();
    private final IntColumn qThread = new IntColumn();
    private final LongColumn qStart = new LongColumn();
    private final LongColumn qWeight = new LongColumn();

    private final Map<Integer, SiteVotes<String>> opCallStacks = new HashMap<>();
    private final SiteVotes<String> stepCallStacks = new SiteVotes<>();
    private final List<String> apis = new ArrayList<>();
    private final Map<String, Integer> apiIndex = new HashMap<>();
    private final Map<Integer, SiteVotes<Long>> apiExternalIds = new HashMap<>();
    private boolean sawCallStack;

    void python(TraceEvent e) {
        if (pyStart.size() >= MAX_PYTHON_EVENTS) {
            pythonDropped++;
            return;
        }
        pyThread.add(thread(e));
        pyStart.add(e.tsNs);
        pyEnd.add(e.endNs());
        pyName.add(intern(pyNames, pyNameIndex, e.name == null ? "" : e.name));
    }

    void op(int opIndex, TraceEvent e) {
        if (e.callStack != null && !e.callStack.isBlank()) {
            sawCallStack = true;
            opCallStacks.computeIfAbsent(opIndex, k -> new SiteVotes<>()).add(e.callStack, 1);
        }
        point(OP, opIndex, e, 1);
    }

    void step(TraceEvent e) {
        if (e.callStack != null && !e.callStack.isBlank()) {
            sawCallStack = true;
            stepCallStacks.add(e.callStack, 1);
        }
        point(STEP, 0, e, 1);
    }

    /** A CUDA runtime call, weighted by its duration: the site that blocks longest is the one to show. */
    void runtime(String api, TraceEvent e) {
        int a = intern(apis, apiIndex, api);
        if (e.externalId != TraceEvent.NONE) apiExternalIds.computeIfAbsent(a, k -> new SiteVotes<>()).add(e.externalId, e.durNs);
        point(API, a, e, e.durNs);
    }

    private void point(int kind, int target, TraceEvent e, long weight) {
        qKind.add(kind);
        qTarget.add(target);
        qThread.add(thread(e));
        qStart.add(e.tsNs);
        qWeight.add(Math.max(1, weight));
    }

    /** The event's thread as a small number; events of one thread come in runs, so the last one is remembered. */
    int thread(TraceEvent e) {
        if (lastThread >= 0 && java.util.Objects.equals(e.tidText, lastTid) && java.util.Objects.equals(e.pidText, lastPid)) {
            return lastThread;
        }
        lastPid = e.pidText;
        lastTid = e.tidText;
        lastThread = intern(threads, threadIndex, e.pidText + "/" + e.tidText);
        return lastThread;
    }

    private String lastPid;
    private String lastTid;
    private int lastThread = -1;

    private static int intern(List<String> list, Map<String, Integer> index, String s) {
        Integer i = index.get(s);
        if (i != null) return i;
        list.add(s);
        index.put(s, list.size() - 1);
        return list.size() - 1;
    }

    /** The stacks found: per op index, per API name, and the training loop's. */
    record Result(Map<Integer, List<StackFrame>> ops, Map<String, List<StackFrame>> apis, List<StackFrame> step,
                  CallSites sites) {
    }

    /**
     * @param externalIdToOp op index of an External id, to place API calls through their op where the trace has
     *                       {@code Call stack} args but no Python events
     */
    Result resolve(LongIntMap externalIdToOp) {
        Map<Integer, List<StackFrame>> opStacks = new HashMap<>();
        Map<String, List<StackFrame>> apiStacks = new HashMap<>();
        List<StackFrame> step = List.of();
        String source = null;
        if (pyStart.size() > 0) {
            Sweep s = new Sweep();
            s.run();
            for (Map.Entry<Integer, SiteVotes<Integer>> e : s.opVotes.entrySet()) {
                List<StackFrame> st = s.chain(e.getValue().best());
                if (!st.isEmpty()) opStacks.put(e.getKey(), st);
            }
            for (Map.Entry<Integer, SiteVotes<Integer>> e : s.apiVotes.entrySet()) {
                List<StackFrame> st = s.chain(e.getValue().best());
                if (!st.isEmpty()) apiStacks.put(apis.get(e.getKey()), st);
            }
            step = s.chain(s.stepVotes.best());
            source = "Kineto python_function events";
        }
        if (sawCallStack) {
            for (Map.Entry<Integer, SiteVotes<String>> e : opCallStacks.entrySet()) {
                opStacks.putIfAbsent(e.getKey(), callStack(e.getValue().best()));
            }
            if (step.isEmpty()) step = callStack(stepCallStacks.best());
            for (Map.Entry<Integer, SiteVotes<Long>> e : apiExternalIds.entrySet()) {
                Long ext = e.getValue().best();
                int op = ext == null ? -1 : externalIdToOp.get(ext, -1);
                List<StackFrame> st = op < 0 ? null : opStacks.get(op);
                if (st != null) apiStacks.putIfAbsent(apis.get(e.getKey()), st);
            }
            source = source == null ? "Kineto Call stack args" : source + " and Call stack args";
        }
        CallSites sites = source == null ? CallSites.none(null) : new CallSites(source, null, step, apiStacks);
        return new Result(opStacks, apiStacks, step, sites);
    }

    /** A {@code Call stack} arg, innermost first, kept from its user frame on. */
    static List<StackFrame> callStack(String text) {
        if (text == null || text.isBlank()) return List.of();
        List<StackFrame> frames = new ArrayList<>();
        for (String entry : text.split(";")) {
            if (!entry.isBlank()) frames.add(KinetoNames.frame(entry));
        }
        return StackFrames.keepInnermostFirst(frames);
    }

    /**
     * One pass over every thread's Python events and points in start order with a stack of open Python calls. The
     * innermost user frame below each stack position is kept as the stack grows, so placing a point costs O(1).
     */
    private final class Sweep {
        final Map<Integer, SiteVotes<Integer>> opVotes = new HashMap<>();
        final Map<Integer, SiteVotes<Integer>> apiVotes = new HashMap<>();
        final SiteVotes<Integer> stepVotes = new SiteVotes<>();
        /** per Python name: its frame, and whether it is a user frame (parsed once per name) */
        private final StackFrame[] frames = new StackFrame[pyNames.size()];
        private final byte[] kind = new byte[pyNames.size()]; // 0 pseudo, 1 library, 2 user
        /** the chain of the first event seen for each user-frame site: stack positions → Python event indexes */
        private final Map<Integer, int[]> chains = new HashMap<>();

        Sweep() {
            for (int i = 0; i < frames.length; i++) {
                StackFrame f = KinetoNames.frame(pyNames.get(i));
                frames[i] = f;
                kind[i] = (byte) (!StackFrames.isSourceLine(f) ? 0 : StackFrames.isUserFrame(f) ? 2 : 1);
            }
        }

        void run() {
            int[] py = order(pyThread, pyStart, pyEnd, pyStart.size());
            int[] q = order(qThread, qStart, null, qStart.size());
            int[] stack = new int[64];
            int[] userBelow = new int[64];
            int depth = 0;
            int pi = 0;
            int currentThread = -1;
            for (int qi = 0; qi < q.length; qi++) {
                int point = q[qi];
                int thread = qThread.get(point);
                long t = qStart.get(point);
                if (thread != currentThread) {
                    currentThread = thread;
                    depth = 0;
                    while (pi < py.length && pyThread.get(py[pi]) < thread) pi++;
                }
                // open every Python call that starts at or before the point, closing those that ended before it
                while (pi < py.length && pyThread.get(py[pi]) == thread && pyStart.get(py[pi]) <= t) {
                    int ev = py[pi++];
                    long s = pyStart.get(ev);
                    while (depth > 0 && pyEnd.get(stack[depth - 1]) < s) depth--;
                    if (depth == stack.length) {
                        stack = Arrays.copyOf(stack, depth * 2);
                        userBelow = Arrays.copyOf(userBelow, depth * 2);
                    }
                    stack[depth] = ev;
                    userBelow[depth] = kind[pyName.get(ev)] == 2 ? depth : depth == 0 ? -1 : userBelow[depth - 1];
                    depth++;
                }
                while (depth > 0 && pyEnd.get(stack[depth - 1]) < t) depth--;
                if (depth == 0) continue;
                int u = userBelow[depth - 1];
                int at = u >= 0 ? u : depth - 1;
                int site = pyName.get(stack[at]);
                // a stack of library frames only is kept too, as its innermost name, so a report can say so
                if (!chains.containsKey(site)) chains.put(site, Arrays.copyOf(stack, at + 1));
                SiteVotes<Integer> votes = switch (qKind.get(point)) {
                    case OP -> opVotes.computeIfAbsent(qTarget.get(point), k -> new SiteVotes<>());
                    case API -> apiVotes.computeIfAbsent(qTarget.get(point), k -> new SiteVotes<>());
                    default -> stepVotes;
                };
                votes.add(site, qWeight.get(point));
            }
        }

        /** The frames of a site's chain, innermost first, pseudo frames (built-ins, nn.Module scopes) left out. */
        List<StackFrame> chain(Integer site) {
            if (site == null) return List.of();
            int[] events = chains.get(site);
            List<StackFrame> out = new ArrayList<>();
            for (int i = events.length - 1; i >= 0 && out.size() < StackFrames.MAX_FRAMES * 4; i--) {
                int name = pyName.get(events[i]);
                if (kind[name] != 0) out.add(frames[name]);
            }
            return StackFrames.keepInnermostFirst(out);
        }
    }

    /** Indexes sorted by (thread, start, longest first): enclosing calls open before the calls they enclose. */
    private static int[] order(IntColumn thread, LongColumn start, LongColumn end, int n) {
        return dlproflint.extract.common.IndexSort.sorted(n, (x, y) -> {
            int c = Integer.compare(thread.get(x), thread.get(y));
            if (c != 0) return c;
            c = Long.compare(start.get(x), start.get(y));
            if (c != 0 || end == null) return c;
            return Long.compare(end.get(y), end.get(x));
        });
    }
}
