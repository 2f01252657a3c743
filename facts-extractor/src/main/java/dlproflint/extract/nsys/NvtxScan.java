package dlproflint.extract.nsys;

import dlproflint.extract.common.IterationEvidence;
import dlproflint.extract.common.RowCursor;
import dlproflint.extract.common.StepInstances;
import dlproflint.facts.Marker;
import dlproflint.facts.ModelConfig;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * NVTX facts: the evidence pass over NVTX_EVENTS before correlation (one stream in storage order when nsys stored it in time order, per-thread
 * stacks: every range for iteration discovery, data-loader ranges), and the marker statistics, framework
 * detection and the plugin's model_config mark the correlation pass gathers while it streams.
 */
final class NvtxScan {
    long ranges;
    long aten;
    long dlprofMarkers;
    long textIdRanges;
    long xla;
    long dali;
    /** an NVTX domain named TensorRT was created (the evidence pass sees the creation events) */
    boolean tensorRtDomain;
    ModelConfig modelConfig = ModelConfig.unknown();
    long unclosed;
    /**
     * A range's text (not a registered string) starts with {@code {'traceMarker'} in any case (SQL's
     * {@code LIKE '{''traceMarker''%'}): DLProf PyTorch plugin markers, whose ops are per call site and occurrence.
     */
    boolean traceMarkerText;

    /** Push/pop and start/end ranges ({@link NvtxSpool#TYPE_PUSH_POP}, {@link NvtxSpool#TYPE_START_END}). */
    static boolean isRange(int eventType) {
        return eventType == NvtxSpool.TYPE_PUSH_POP || eventType == NvtxSpool.TYPE_START_END;
    }
    /** NvtxDomainCreate: its text is the domain's name */
    static final int TYPE_DOMAIN_CREATE = 75;

    /** The text and the registered string's id columns ({@code -1} where there is no id: one native call a row). */
    static String textExpr(NsysDatabase db) {
        boolean text = db.hasColumn("NVTX_EVENTS", "text");
        boolean textId = db.hasColumn("NVTX_EVENTS", "textId");
        return (text ? "text" : "NULL") + ", " + (textId ? "ifnull(textId, -1)" : "-1");
    }

    /**
     * The evidence pass: every NVTX range as the correlation pass will name it (a DLProf plugin op by its
     * trace marker's module path, an emit_nvtx range by its aten name, plain text as it is), with its
     * thread, for {@link IterationEvidence}; and the data-loader ranges, for the per-step data-loader time.
     * It is the one read of NVTX_EVENTS: every range and mark goes to {@code spool} as well, which puts them in
     * (process, start, end descending) order and which the correlation pass and the host's time per step read instead
     * of the table. The rows are read on {@code beside}'s connection and thread while this one parses them
     * ({@link AheadCursor}), or here when it is null.
     *
     * <p>The table is read in storage order. While its rows come in order, the iterations' evidence is gathered as
     * they come; nsys stores push/pop ranges when they end, an enclosing range after its content, and from the first
     * row out of order on, the rows only go to the spool (each text still parsed once, here) and the evidence is
     * gathered afterwards from the spool in order. No sort by SQLite, no second read; only a table too far from order
     * for the spool's runs ({@link NvtxSpool.TooManyRuns}) is marked unsorted and read again sorted by SQLite
     * ({@link OrderedScan.OutOfOrder}).
     *
     * @param evidences a new, empty evidence each time it is asked (the evidence gathered while the rows came in
     *                  order is dropped when one comes out of order)
     * @return the evidence of every range
     */
    IterationEvidence run(NsysDatabase db, Beside beside, java.util.function.Supplier<IterationEvidence> evidences,
                          ProfileEnd profileEnd, NvtxSpool spool) throws Exception {
        spool.reset();
        dataLoaderRanges = new StepInstances();
        IterationEvidence evidence = evidences.get();
        if (!db.has("NVTX_EVENTS") || !db.hasColumn("NVTX_EVENTS", "start")) return evidence;
        Nesting nesting = new Nesting(evidence, profileEnd);
        MarkerText.Parser parser = new MarkerText.Parser(db);
        String tidCol = db.col("NVTX_EVENTS", "globalTid", "0");
        String type = db.col("NVTX_EVENTS", "eventType", "59");
        String pid = NsysDatabase.pidOf(tidCol);
        // every row, those of other types left out here: marks, ranges and the domains' creation events (a TensorRT
        // domain names the framework, no scan of the table of its own), and the largest time of all for the
        // profile's end (no scan of the table for it either)
        // as few columns as the pass needs: the process is the thread's id's bits as pidOf takes them, a registered
        // string's id -1 where there is none
        String select = "SELECT " + tidCol + ", start, end, " + textExpr(db) + ", " + type + " FROM NVTX_EVENTS";
        // in storage order unless the table is known to be too far from order (then sorted by SQLite)
        AheadCursor.Ordered in = AheadCursor.ordered(db, beside, "NVTX_EVENTS", null, new String[] {pid, "start", "end DESC"},
                select, 6, 3);
        boolean inOrder = true;
        long last = 0;
        try (RowCursor rs = in.rows()) {
            while (rs.next()) {
                long start = rs.getLong(1);
                long endRaw = rs.getLong(2);
                last = Math.max(last, Math.max(start, endRaw));
                int eventType = rs.getInt(5);
                if (eventType != NvtxSpool.TYPE_MARK && eventType != TYPE_DOMAIN_CREATE && !isRange(eventType)) continue;
                long tid = rs.getLong(0);
                long p = NsysDatabase.pidOf(tid);
                boolean noEnd = endRaw == 0 && rs.isNull(2);
                // the text as its bytes: the common emit_nvtx text is parsed and spooled without a string of it
                byte[] text = rs.getUtf8(3);
                long id = rs.getLong(4);
                boolean registered = text == null && id != -1;
                long textId = registered ? id : 0;
                if (eventType == TYPE_DOMAIN_CREATE) {
                    if (text != null && new String(text, StandardCharsets.UTF_8).toLowerCase(java.util.Locale.ROOT)
                            .contains("tensorrt")) tensorRtDomain = true;
                    continue;
                }
                boolean range = eventType != NvtxSpool.TYPE_MARK;
                if (range && text != null && !traceMarkerText && text.length > 0 && text[0] == '{'
                        && new String(text, StandardCharsets.UTF_8).regionMatches(true, 0, "{'traceMarker'", 0, 14)) {
                    traceMarkerText = true;
                }
                // marks have no duration: the correlation pass reads their text (the plugin's model_config)
                // an op range spelt as PyTorch writes it is its name's shared shape (no object a row), its number beside
                MarkerText m = range ? parser.parseShared(text, registered, textId) : null;
                long seq = range ? parser.seq() : -1;
                try {
                    spool.add(p, tid, start, endRaw, noEnd, eventType, registered, textId, text, range ? m.flags() : 0, m,
                            seq);
                } catch (NvtxSpool.TooManyRuns e) {
                    db.markUnsorted("NVTX_EVENTS");
                    throw new OrderedScan.OutOfOrder("NVTX_EVENTS");
                }
                inOrder = inOrder && spool.ordered();
                if (range && inOrder) nesting.range(m, seq, tid, start, endRaw, noEnd);
            }
            // read to its end: the table's last time, where every value came from the file as an integer
            profileEnd.readWhole("NVTX_EVENTS", last, rs);
        }
        spool.finish();
        if (dlproflint.extract.common.PhaseTimer.ON) {
            System.err.printf("nvtx spool: %,d rows in %d runs%s%n", spool.rows(), spool.runs(),
                    spool.ordered() ? "" : " (out of order: the evidence gathered from the spool)");
        }
        if (inOrder) return evidence;
        // out of order: the evidence again, from the spool in order
        dataLoaderRanges = new StepInstances();
        evidence = evidences.get();
        nesting = new Nesting(evidence, profileEnd);
        long t0 = System.nanoTime();
        try (NvtxSpool.Reader rows = spool.inOrder()) {
            for (NvtxSpool.Row r; (r = rows.next()) != null; ) {
                if (r.isRange()) {
                    MarkerText m = r.marker(parser);
                    nesting.range(m, r.seqOf(m), r.tid, r.start, r.end, r.noEnd);
                }
            }
        }
        if (dlproflint.extract.common.PhaseTimer.ON) {
            System.err.printf("nvtx spool: the evidence from it in %.2f s%n", (System.nanoTime() - t0) / 1e9);
        }
        return evidence;
    }

    /** Each thread's open ranges over the rows in order, and what they tell the evidence. */
    private final class Nesting {
        private final IterationEvidence evidence;
        private final ProfileEnd profileEnd;
        private final Map<Long, OpenRanges> openByThread = new HashMap<>();
        // the thread of the previous row is kept at hand (rows come in runs of a thread)
        private OpenRanges stack;
        private long stackTid;

        Nesting(IterationEvidence evidence, ProfileEnd profileEnd) {
            this.evidence = evidence;
            this.profileEnd = profileEnd;
        }

        /** @param seq the range's sequence number ({@code m}'s, or the row's where {@code m} is a shared shape) */
        void range(MarkerText m, long seq, long tid, long start, long endRaw, boolean noEnd) throws Exception {
            long end = noEnd ? profileEnd.get() : Math.max(start, endRaw);
            if (stack == null || tid != stackTid) {
                stack = openByThread.computeIfAbsent(tid, t -> new OpenRanges());
                stackTid = tid;
            }
            stack.closeBefore(start, end);
            observeForIterations(evidence, m, seq, stack.innermost(), start, end, tid);
            stack.push(end, m);
        }
    }

    /** A thread's ranges still open at the row being read: their ends and parses, innermost last. */
    private static final class OpenRanges {
        private long[] ends = new long[16];
        private MarkerText[] parses = new MarkerText[16];
        private int size;

        /** Closes the ranges that do not enclose {@code [start, end]}. */
        void closeBefore(long start, long end) {
            while (size > 0 && !NvtxRange.encloses(ends[size - 1], start, end)) parses[--size] = null;
        }

        MarkerText innermost() {
            return size == 0 ? null : parses[size - 1];
        }

        void push(long end, MarkerText m) {
            if (size == ends.length) {
                ends = java.util.Arrays.copyOf(ends, size * 2);
                parses = java.util.Arrays.copyOf(parses, size * 2);
            }
            ends[size] = end;
            parses[size++] = m;
        }
    }

    /** Data-loader ranges (start, end), for the time each step spent loading data. */
    StepInstances dataLoaderRanges = new StepInstances();

    private void observeForIterations(IterationEvidence evidence, MarkerText m, long seq, MarkerText parent, long start,
                                      long end, long tid) {
        switch (m.kind) {
            case DLPROF_OP -> {
                // the plugin's op is named by the trace marker around it, as DLProf (and the correlation pass) name it
                boolean traced = parent != null && parent.kind == MarkerText.Kind.TRACE_MARKER && parent.name != null;
                evidence.range(traced ? parent.name : m.name, m.name, start, end, tid);
            }
            // a canonical text begins with its name: spelt only where a key node could name a text that begins so
            case ATEN, PLAIN -> evidence.range(m.name, !m.canonical() ? m.text()
                    : evidence.mayName(m.name) ? MarkerText.canonicalText(m.name, seq) : null, start, end, tid);
            default -> { } // trace markers wrap an op; model_config is a mark
        }
        if (m.kind != MarkerText.Kind.MODEL_CONFIG && m.dataloader()) {
            dataLoaderRanges.add(start, end, tid);
        }
    }

    /** Counts one NVTX event (called by the correlation pass for every row it streams). */
    void observe(MarkerText m, int eventType, boolean registered) {
        if (m.kind == MarkerText.Kind.MODEL_CONFIG) modelConfig = modelConfig(m.modelConfig);
        if (eventType == 34) return;
        ranges++;
        if (registered) textIdRanges++;
        if (m.kind == MarkerText.Kind.ATEN) aten++;
        if (m.kind == MarkerText.Kind.DLPROF_OP || m.kind == MarkerText.Kind.TRACE_MARKER) dlprofMarkers++;
        if (m.dali()) dali++;
        if (m.xla()) xla++;
    }

    private static ModelConfig modelConfig(Map<?, ?> c) {
        Boolean benchDisabled = bool(c.get("cudnn_benchmark_disabled"));
        Boolean bench = bool(c.get("cudnn_benchmark"));
        if (bench == null && benchDisabled != null) bench = !benchDisabled;
        Boolean detect = bool(c.get("detect_anomaly"));
        Boolean setDetect = bool(c.get("autograd_set_detect_anomaly"));
        if (setDetect != null) detect = Boolean.TRUE.equals(detect) || setDetect;
        Object nw = c.get("num_workers");
        Integer workers = nw instanceof Number n ? n.intValue() : null;
        return new ModelConfig(workers, bool(c.get("pin_memory")), bench, detect, bool(c.get("gradcheck")),
                bool(c.get("gradgradcheck")), bool(c.get("autograd_profile")), bool(c.get("emit_nvtx")),
                bool(c.get("amp_enabled")));
    }

    private static Boolean bool(Object o) {
        if (o instanceof Boolean b) return b;
        if (o instanceof Number n) return n.longValue() != 0;
        if (o instanceof String s) return s.equalsIgnoreCase("true") || s.equals("1");
        return null;
    }

    String framework() {
        if (aten > 0 || dlprofMarkers > 0) return "pytorch";
        if (tensorRtDomain) return "tensorrt";
        if (xla > 0) return "tensorflow";
        return null;
    }

    Marker markers() {
        return new Marker(ranges, aten, dlprofMarkers, textIdRanges, xla, dali);
    }
}
