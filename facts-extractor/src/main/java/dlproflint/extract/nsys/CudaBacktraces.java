package dlproflint.extract.nsys;

import dlproflint.extract.common.ApiNames;
import dlproflint.extract.common.SiteVotes;
import dlproflint.facts.StackFrame;
import dlproflint.facts.StackFrames;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Call stacks of CUDA API calls recorded with {@code nsys profile --cudabacktrace=...}: each
 * {@code CUPTI_ACTIVITY_KIND_RUNTIME} row names a {@code callchainId}, and {@code CUDA_CALLCHAINS} holds its frames
 * ({@code id, symbol → StringIds, module → StringIds, ..., stackDepth}, depth 0 innermost) — the layout of
 * {@code OSRT_CALLCHAINS} and {@code SAMPLING_CALLCHAINS}, which the corpus exports of 2023.x and 2025.x share.
 *
 * <p>Grouping is left to SQLite, so nothing is held per call: one query counts the calls of every (API, chain) and
 * one every (kernel, chain) of the launches behind each kernel name; only the winning chain of each API and kernel
 * is then read. Frames become {@link StackFrame}s: a Python frame (from {@code --python-backtrace=cuda}, whose
 * module is a {@code .py} file or whose symbol names one with a line) keeps file and line; a native frame keeps its
 * module and symbol with no line, so it is never taken for the model's own source line.
 */
final class CudaBacktraces {
    /** {@code forward (/w/model.py:42)}, {@code /w/model.py:42}, {@code model.py(42): forward}. */
    private static final Pattern PY_IN_SYMBOL = Pattern.compile("([^\\s()\\[\\]]+\\.py)\\s*[:(]\\s*(\\d+)");
    private static final Pattern TRAILING_LINE = Pattern.compile("[:(\\s](?:line\\s*)?(\\d+)\\)?\\s*$");

    /** What was found: per API name and per kernel short name, the dominant call site's stack. */
    record Result(Map<String, List<StackFrame>> apis, Map<String, List<StackFrame>> kernels, boolean anyPythonFrame) {
        boolean empty() {
            return apis.isEmpty() && kernels.isEmpty();
        }
    }

    private CudaBacktraces() {
    }

    static boolean present(NsysDatabase db) {
        return db.has("CUDA_CALLCHAINS") && db.has("CUPTI_ACTIVITY_KIND_RUNTIME")
                && db.hasColumn("CUPTI_ACTIVITY_KIND_RUNTIME", "callchainId") && db.hasColumn("CUDA_CALLCHAINS", "id")
                && db.hasColumn("CUDA_CALLCHAINS", "stackDepth") && db.hasColumn("CUDA_CALLCHAINS", "symbol");
    }

    static Result read(NsysDatabase db) throws SQLException {
        Map<String, SiteVotes<Long>> apiVotes = new TreeMap<>();
        String rt = "CUPTI_ACTIVITY_KIND_RUNTIME";
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT nameId, callchainId, SUM(MAX(end - start, 0)) FROM " + rt
                     + " WHERE callchainId IS NOT NULL AND callchainId != 0 GROUP BY nameId, callchainId")) {
            while (rs.next()) {
                String api = ApiNames.normalize(db.string(rs.getLong(1)));
                apiVotes.computeIfAbsent(api, k -> new SiteVotes<>()).add(rs.getLong(2), rs.getLong(3));
            }
        }
        Map<String, SiteVotes<Long>> kernelVotes = new TreeMap<>();
        String k = "CUPTI_ACTIVITY_KIND_KERNEL";
        if (db.has(k) && db.hasColumn(k, "correlationId") && db.hasColumn(rt, "correlationId")) {
            String name = db.col(k, "shortName", db.col(k, "demangledName", "0"));
            String pidMatch = db.hasColumn(k, "globalPid") && db.hasColumn(rt, "globalTid")
                    ? " AND ((r.globalTid >> 24) & 16777215) = ((k.globalPid >> 24) & 16777215)" : "";
            try (Statement st = db.connection().createStatement();
                 ResultSet rs = st.executeQuery("SELECT k." + name + ", r.callchainId, SUM(MAX(k.end - k.start, 0)) FROM " + k
                         + " k JOIN " + rt + " r ON r.correlationId = k.correlationId" + pidMatch
                         + " WHERE r.callchainId IS NOT NULL AND r.callchainId != 0 GROUP BY k." + name + ", r.callchainId")) {
                while (rs.next()) {
                    String kernel = db.string(rs.getLong(1));
                    if (kernel != null) kernelVotes.computeIfAbsent(kernel, x -> new SiteVotes<>()).add(rs.getLong(2), rs.getLong(3));
                }
            }
        }
        Set<Long> wanted = new HashSet<>();
        apiVotes.values().forEach(v -> wanted.add(v.best()));
        kernelVotes.values().forEach(v -> wanted.add(v.best()));
        Map<Long, List<StackFrame>> chains = chains(db, wanted);
        boolean python = false;
        Map<String, List<StackFrame>> apis = new TreeMap<>();
        for (var e : apiVotes.entrySet()) {
            List<StackFrame> s = chains.getOrDefault(e.getValue().best(), List.of());
            if (!s.isEmpty()) apis.put(e.getKey(), s);
        }
        Map<String, List<StackFrame>> kernels = new HashMap<>();
        for (var e : kernelVotes.entrySet()) {
            List<StackFrame> s = chains.getOrDefault(e.getValue().best(), List.of());
            if (!s.isEmpty()) kernels.put(e.getKey(), s);
        }
        for (List<StackFrame> s : chains.values()) python |= s.stream().anyMatch(StackFrames::isSourceLine);
        return new Result(apis, kernels, python);
    }

    /** The frames of each chain, innermost first, kept from the user frame on. */
    private static Map<Long, List<StackFrame>> chains(NsysDatabase db, Set<Long> ids) throws SQLException {
        Map<Long, List<StackFrame>> raw = new HashMap<>();
        if (ids.isEmpty()) return raw;
        String c = "CUDA_CALLCHAINS";
        String module = db.hasColumn(c, "module") ? "module" : "0";
        List<Long> list = new ArrayList<>(ids);
        // in batches: a pull request's profile may have thousands of distinct APIs and kernels
        for (int from = 0; from < list.size(); from += 500) {
            StringBuilder in = new StringBuilder();
            for (Long id : list.subList(from, Math.min(list.size(), from + 500))) {
                if (id == null) continue;
                if (in.length() > 0) in.append(',');
                in.append(id.longValue());
            }
            if (in.length() == 0) continue;
            try (Statement st = db.connection().createStatement();
                 ResultSet rs = st.executeQuery("SELECT id, stackDepth, symbol, " + module + " FROM " + c
                         + " WHERE id IN (" + in + ") ORDER BY id, stackDepth")) {
                while (rs.next()) {
                    List<StackFrame> frames = raw.computeIfAbsent(rs.getLong(1), x -> new ArrayList<>());
                    if (frames.size() < 256) frames.add(frame(db.string(rs.getLong(3)), db.string(rs.getLong(4))));
                }
            }
        }
        Map<Long, List<StackFrame>> out = new HashMap<>();
        raw.forEach((id, frames) -> out.put(id, StackFrames.keepInnermostFirst(frames)));
        return out;
    }

    /** One callchain entry as a frame: Python (file and line) when it names a {@code .py} file, else native. */
    static StackFrame frame(String symbol, String module) {
        String sym = symbol == null ? "" : symbol.strip();
        String mod = module == null ? "" : module.strip();
        if (mod.endsWith(".py")) {
            Matcher m = TRAILING_LINE.matcher(sym);
            int line = m.find() ? Integer.parseInt(m.group(1)) : 0;
            String fn = line > 0 ? sym.substring(0, m.start()).strip() : sym;
            return new StackFrame(mod, line, fn);
        }
        Matcher m = PY_IN_SYMBOL.matcher(sym);
        if (m.find()) {
            String fn = sym.substring(0, m.start()).replaceAll("[\\s(\\[]+$", "").strip();
            if (fn.isEmpty()) fn = sym.substring(m.end()).replaceAll("^[\\s):\\]]+", "").strip();
            return new StackFrame(m.group(1), Integer.parseInt(m.group(2)), fn);
        }
        return new StackFrame(mod.isEmpty() ? "[unknown module]" : mod, 0, sym);
    }
}
