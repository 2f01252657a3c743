package dlproflint.extract.common;

import dlproflint.extract.common.IterationEvidence.Family;
import dlproflint.extract.common.IterationEvidence.Kind;
import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.IterationCandidate;
import dlproflint.facts.IterationSummary;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds a profile's iterations from the evidence a reader gathered, the same way for every format, in
 * order of evidence (the first that applies wins):
 * <ol>
 *   <li><b>the user's key node</b> ({@code --key-node}; a family name such as {@code ProfilerStep} matches
 *       {@code ProfilerStep#12}): DLProf's rule, N instances split the profile at their stop times into N+1
 *       iterations;</li>
 *   <li><b>the framework's key node</b> DLProf used by default ({@code global_step} in TensorFlow), same rule;</li>
 *   <li><b>step markers</b>: {@code ProfilerStep#N} ranges; then numbered range families ({@code step 12},
 *       {@code iter_5}, {@code train#step_num=7}) whose counter goes up in time and whose ranges fill their span;
 *       then repeated ranges with a step-like name ({@code train_step}). Each range is one iteration;</li>
 *   <li><b>inference from repetition</b>: DataLoader {@code __next__} calls (each starts a step), {@code Optimizer.step}
 *       calls (each ends one), or the op that starts a regularly repeating sequence (DLProf's manual recipe: an
 *       op executed once per iteration, preferably the very first);</li>
 *   <li>otherwise the profile is one iteration, and the families that come closest are proposed as candidates.</li>
 * </ol>
 * Step windows: a marker range is its step (a short marker that does not fill its span only marks where
 * its step starts); an inferred start boundary opens a step that lasts until the next one; an inferred end
 * boundary closes a step that began at the previous one. The open edge (the end of the last step, the start
 * of the first) is one median period away, within the capture. Work before the first or after the last step
 * is attributed to the nearest step (see {@link Iterations}).
 */
public final class IterationDiscovery {
    /** Inferring from a generic repeating op needs this many instances, this regular a period and this much of the run. */
    public static final int MIN_REPEATS = 3;
    static final double MAX_PERIOD_VARIATION_PCT = 25;
    static final double MIN_COVERAGE_PCT = 50;
    /** A numbered family without a step-like name must fill this much of its own span to count as step markers. */
    static final double MIN_TILING_PCT = 50;
    static final int MAX_CANDIDATES = 5;
    static final double MIN_CANDIDATE_COVERAGE_PCT = 20;

    private final IterationEvidence ev;
    private final long profileStart;
    /**
     * The capture's end is not known while deciding (the nsys reader finds it in the pass after): a last stop that
     * lasts until it is this until then; the splits whose last stop depends on the end say how
     * ({@link IterationSplit#openEnded}) and are given it after ({@link IterationSplit#endAt}).
     */
    private static final long UNTIL_END = Long.MAX_VALUE;
    private final List<ExtractionWarning> warnings = new ArrayList<>();

    private IterationDiscovery(IterationEvidence ev, long profileStart) {
        this.ev = ev;
        this.profileStart = profileStart;
    }

    /**
     * @param profileStart start of the capture (the first interval of DLProf's rule starts here)
     * @param profileEnd   end of the capture
     */
    public static IterationSplit decide(IterationEvidence evidence, long profileStart, long profileEnd) {
        return decideOpenEnded(evidence, profileStart).endAt(profileEnd);
    }

    /**
     * The decision before the capture's end is known: nothing but the last iteration's stop depends on it (the
     * iterations' starts, and so which iteration any moment falls in, do not). The caller gives the end to
     * {@link IterationSplit#endAt} before it reads a stop.
     */
    public static IterationSplit decideOpenEnded(IterationEvidence evidence, long profileStart) {
        return new IterationDiscovery(evidence, profileStart).decide();
    }

    private IterationSplit decide() {
        String userKey = ev.userKey();
        if (userKey != null) {
            if (ev.userKeyHits.size() > 0) {
                return keyNodeSplit(ev.userKeyHits, userKey, IterationSummary.USER_KEY_NODE, "user");
            }
        }
        IterationSplit split = discover();
        if (userKey != null) {
            warnings.add(0, new ExtractionWarning("key-node-not-found", "key node '" + userKey + "' not found; "
                    + (split.found() ? "iterations were found by " + describe(split) + " instead"
                    : "the profile is one iteration")));
            return new IterationSplit(split.method(), split.keyNode(), split.found() ? "default" : "user",
                    split.found(), split.iterations(), split.gpuStarts(), warnings(), split.candidates())
                    .numbered(split.markerNumbers()).endsLike(split);
        }
        return split;
    }

    private static String describe(IterationSplit s) {
        return s.summary(new int[] {0, s.iterations().count() - 1}).howFound();
    }

    private IterationSplit discover() {
        if (ev.defaultKey() != null && ev.defaultKeyHits.size() > 0) {
            return keyNodeSplit(ev.defaultKeyHits, ev.defaultKey(), IterationSummary.FRAMEWORK_KEY_NODE, "default");
        }
        IterationSplit markers = stepMarkers();
        if (markers != null) return markers;
        IterationSplit inferred = inferred();
        if (inferred != null) return inferred;
        List<IterationCandidate> candidates = candidates();
        String enclosing = candidates.isEmpty() ? null : enclosingRange();
        warnings.add(new ExtractionWarning("no-iterations", "no key node, step markers or regularly repeating step were found"
                + (ev.ranges == 0 ? " (the profile has no named ranges or ops)" : "")
                + ": the whole profile is one iteration"
                + (candidates.isEmpty() ? "" : "; closest step candidates: " + candidateNames(candidates))
                + (enclosing == null ? "" : "; they all repeat inside the single range '" + enclosing
                + "', which spans the run, so they look like parts of one step (pass one as --key-node if each is a step)")));
        return new IterationSplit(IterationSummary.NONE, null, "none", false,
                Iterations.fromKeyStops(new long[0], profileStart, UNTIL_END), null, warnings(), candidates)
                .openEnded(profileStart, UNTIL_END);
    }

    /** A range that runs once and spans (nearly) the whole run: everything else repeats inside it. */
    private String enclosingRange() {
        long span = ev.lastEnd() - ev.firstStart();
        for (Family f : ev.families()) {
            if (f.count != 1 || f.dropped() || f.instances.size() != 1 || span <= 0) continue;
            if (f.instances.end(0) - f.instances.start(0) >= 0.9 * span) return f.name;
        }
        return null;
    }

    private static String candidateNames(List<IterationCandidate> c) {
        List<String> names = new ArrayList<>();
        for (IterationCandidate x : c) names.add("'" + x.keyNode() + "'");
        return String.join(", ", names);
    }

    private List<ExtractionWarning> warnings() {
        return List.copyOf(warnings);
    }

    // ------------------------------------------------------------------ key nodes (DLProf)

    private IterationSplit keyNodeSplit(StepInstances hits, String key, String method, String source) {
        Map<Long, List<Long>> byThread = new LinkedHashMap<>();
        for (int i = 0; i < hits.size(); i++) byThread.computeIfAbsent(hits.thread(i), t -> new ArrayList<>()).add(hits.end(i));
        Map<Integer, List<Long>> byGroup = new LinkedHashMap<>();
        int g = 0;
        for (List<Long> stops : byThread.values()) byGroup.put(g++, stops);
        long[] stops = Iterations.multiGpuStops(byGroup);
        // the last step lasts until the end of the capture
        return new IterationSplit(method, key, source, true, Iterations.fromKeyStops(stops, profileStart, UNTIL_END), null,
                warnings(), List.of()).openEnded(profileStart, UNTIL_END);
    }

    // ------------------------------------------------------------------ step markers

    private IterationSplit stepMarkers() {
        // ProfilerStep#N: every name of the family, numbered
        StepSeries.Raw steps = new StepSeries.Raw(StepNames.PROFILER_STEP_FAMILY);
        for (Family f : ev.families()) {
            if (f.kind == Kind.PROFILER_STEP) steps.addAll(f.instances, Long.parseLong(f.name.substring(13)));
        }
        if (steps.size() > 0) {
            StepSeries s = StepSeries.cleanMarkers(steps, StepNames.PROFILER_STEP_FAMILY, warnings);
            return rangeSplit(s, IterationSummary.STEP_MARKERS, gpuStarts(s));
        }
        StepSeries numbered = bestNumberedFamily();
        if (numbered != null) return markerSplit(numbered, IterationSummary.NUMBERED_RANGES);
        StepSeries named = bestNamedRanges();
        if (named != null) return markerSplit(named, IterationSummary.NAMED_RANGES);
        return null;
    }

    /** Families of names that differ only in one counter ({@code iter_1}, {@code iter_2}, ...), as raw series. */
    private Map<String, StepSeries.Raw> numberedFamilies() {
        Map<String, Map<Long, List<Family>>> byTemplate = new HashMap<>();
        for (Family f : ev.families()) {
            if (f.dropped() || f.kind == Kind.PROFILER_STEP) continue;
            for (StepNames.Counter c : StepNames.counters(f.name)) {
                byTemplate.computeIfAbsent(c.family(), t -> new HashMap<>()).computeIfAbsent(c.value(), v -> new ArrayList<>()).add(f);
            }
        }
        Map<String, StepSeries.Raw> out = new LinkedHashMap<>();
        byTemplate.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            if (e.getValue().size() < 2) return; // one value: the plain name, not a counter
            StepSeries.Raw raw = new StepSeries.Raw(e.getKey());
            e.getValue().forEach((value, fams) -> fams.forEach(f -> raw.addAll(f.instances, value)));
            out.put(e.getKey(), raw);
        });
        return out;
    }

    private StepSeries bestNumberedFamily() {
        StepSeries.Raw best = null;
        double bestScore = -1;
        for (Map.Entry<String, StepSeries.Raw> e : numberedFamilies().entrySet()) {
            StepSeries s = StepSeries.mainThread(e.getValue());
            boolean hint = StepNames.stepHint(e.getKey());
            // a step counter: every instance its own number, counting up in time
            if (s.size() < 2 || s.distinctNumbers() < 0.8 * s.size() || s.risingPct() < 80) continue;
            // without a step-like name, steps must fill their span and span most of the run
            if (!hint && (s.tilingPct() < MIN_TILING_PCT || s.coveragePct(ev.firstStart(), ev.lastEnd()) < MIN_COVERAGE_PCT)) continue;
            double score = (hint ? 1000 : 0) + Math.round(s.coveragePct(ev.firstStart(), ev.lastEnd()) / 5) * 5 + s.tilingPct() / 100;
            if (score > bestScore) {
                best = e.getValue();
                bestScore = score;
            }
        }
        return best == null ? null : StepSeries.cleanMarkers(best, best.family, warnings);
    }

    private StepSeries bestNamedRanges() {
        StepSeries.Raw best = null;
        double bestCoverage = -1;
        for (Family f : ev.families()) {
            if (f.kind != Kind.STEP_HINT || f.dropped() || f.count < 2) continue;
            StepSeries.Raw raw = new StepSeries.Raw(f.name);
            raw.addAll(f.instances, -1);
            StepSeries s = StepSeries.mainThread(raw);
            double coverage = s.coveragePct(ev.firstStart(), ev.lastEnd());
            if (s.size() < 2 || s.tilingPct() < MIN_TILING_PCT && coverage < MIN_COVERAGE_PCT) continue;
            if (coverage > bestCoverage) {
                best = raw;
                bestCoverage = coverage;
            }
        }
        return best == null ? null : StepSeries.cleanMarkers(best, best.family, warnings);
    }

    private long[] gpuStarts(StepSeries s) {
        if (ev.gpuSteps.isEmpty()) return null;
        long[] out = new long[s.size()];
        for (int i = 0; i < s.size(); i++) {
            StepInstances g = ev.gpuSteps.get("ProfilerStep#" + s.numbers[i]);
            if (g == null || g.size() != 1) return null;
            out[i] = g.start(0);
        }
        for (int i = 1; i < out.length; i++) if (out[i] < out[i - 1]) return null;
        return out;
    }

    /**
     * Ranges that fill their span are the steps themselves; short ones (a range around the forward pass
     * only, a mark-like range) only say where each step starts.
     */
    private IterationSplit markerSplit(StepSeries s, String method) {
        return s.tilingPct() >= MIN_TILING_PCT ? rangeSplit(s, method, null) : startSplit(s, method);
    }

    private IterationSplit rangeSplit(StepSeries s, String method, long[] gpuStarts) {
        return new IterationSplit(method, s.family, "default", true, Iterations.ofWindows(s.starts, s.ends), gpuStarts,
                warnings(), List.of()).numbered(s.numbers);
    }

    // ------------------------------------------------------------------ inference from repetition

    private IterationSplit inferred() {
        StepSeries loader = mostFrequent(Kind.DATALOADER_NEXT);
        if (loader != null && loader.size() >= 2) return startSplit(loader, IterationSummary.INFERRED_DATALOADER);
        StepSeries optimizer = mostFrequent(Kind.OPTIMIZER_STEP);
        if (optimizer != null && optimizer.size() >= 2) return stopSplit(optimizer);
        StepSeries op = repeatingOp();
        if (op != null) return startSplit(op, IterationSummary.INFERRED_REPEATING_OP);
        return null;
    }

    private StepSeries mostFrequent(Kind kind) {
        StepSeries best = null;
        for (Family f : ev.families()) {
            if (f.kind != kind || f.dropped()) continue;
            StepSeries.Raw raw = new StepSeries.Raw(f.name);
            raw.addAll(f.instances, -1);
            StepSeries s = StepSeries.mainThread(raw);
            if (best == null || s.size() > best.size()) best = s;
        }
        if (best != null && ev.families().stream().filter(f -> f.kind == kind).mapToLong(f -> f.count).sum() > best.size()) {
            warnings.add(new ExtractionWarning("inferred-steps-partial", "steps are inferred from " + best.size() + " '" + best.family
                    + "' calls on one thread; calls on other threads or of other names were not used"));
        }
        return best;
    }

    /**
     * DLProf's manual recipe as code: among top-level ops (inside no other range on their thread) that repeat
     * at a regular period over most of the run, the step count most of them agree on (every op of the step
     * runs once per step), and of the ops with that count the one that starts first (ties: the longest).
     * Only top-level ops: ops repeating inside one enclosing range are layers of one step, not steps.
     */
    private StepSeries repeatingOp() {
        Set<String> topLevel = topLevelFamilies();
        Map<Integer, List<StepSeries>> byCount = new HashMap<>();
        for (Family f : ev.families()) {
            if (f.dropped() || f.count < MIN_REPEATS || !topLevel.contains(f.name)) continue;
            StepSeries s = series(f);
            if (s.size() < MIN_REPEATS || s.periodVariationPct() > MAX_PERIOD_VARIATION_PCT
                    || s.coveragePct(ev.firstStart(), ev.lastEnd()) < MIN_COVERAGE_PCT) continue;
            byCount.computeIfAbsent(s.size(), n -> new ArrayList<>()).add(s);
        }
        if (byCount.isEmpty()) return null;
        int steps = byCount.entrySet().stream()
                .max(Comparator.<Map.Entry<Integer, List<StepSeries>>>comparingInt(e -> e.getValue().size())
                        .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                .orElseThrow().getKey();
        return byCount.get(steps).stream()
                .min(Comparator.<StepSeries>comparingLong(s -> s.starts[0])
                        .thenComparing(s -> -(s.ends[0] - s.starts[0]))
                        .thenComparing(s -> s.family))
                .orElseThrow();
    }

    /**
     * Names whose stored instances are (nearly) all top-level on their thread, judged against every stored
     * instance of every name (names dropped for running too often are not there to enclose anything).
     */
    private Set<String> topLevelFamilies() {
        List<Family> fams = new ArrayList<>();
        int total = 0;
        for (Family f : ev.families()) {
            if (f.dropped()) continue;
            fams.add(f);
            total += f.instances.size();
        }
        long[] thread = new long[total];
        long[] start = new long[total];
        long[] end = new long[total];
        long[] endDescending = new long[total];
        int[] fam = new int[total];
        int k = 0;
        for (int fi = 0; fi < fams.size(); fi++) {
            StepInstances in = fams.get(fi).instances;
            for (int i = 0; i < in.size(); i++, k++) {
                thread[k] = in.thread(i);
                start[k] = in.start(i);
                end[k] = in.end(i);
                endDescending[k] = ~end[k];
                fam[k] = fi;
            }
        }
        int[] order = IndexSort.byKeys(total, thread, start, endDescending);
        int[] top = new int[fams.size()];
        long reach = Long.MIN_VALUE;
        long current = Long.MIN_VALUE;
        for (int idx : order) {
            if (thread[idx] != current) {
                current = thread[idx];
                reach = Long.MIN_VALUE;
            }
            if (start[idx] >= reach) {
                top[fam[idx]]++;
                reach = end[idx];
            } else {
                reach = Math.max(reach, end[idx]);
            }
        }
        Set<String> out = new HashSet<>();
        for (int fi = 0; fi < fams.size(); fi++) {
            if (top[fi] >= 0.9 * fams.get(fi).instances.size()) out.add(fams.get(fi).name);
        }
        return out;
    }

    private static StepSeries series(Family f) {
        StepSeries.Raw raw = new StepSeries.Raw(f.name);
        raw.addAll(f.instances, -1);
        return StepSeries.mainThread(raw);
    }

    /**
     * Each instance starts a step that lasts until the next one. Nothing marks where the last one ends: it is
     * taken to last one median period (at least to its own instance's end), cut at the end of the capture.
     */
    private IterationSplit startSplit(StepSeries s, String method) {
        int n = s.size();
        long[] starts = s.starts.clone();
        long[] stops = new long[n];
        for (int i = 0; i + 1 < n; i++) stops[i] = starts[i + 1];
        long open = Math.max(s.ends[n - 1], starts[n - 1] + s.medianPeriod());
        stops[n - 1] = Math.max(starts[n - 1], open); // cut at the capture's end by endAt
        return new IterationSplit(method, s.family, "default", true, Iterations.ofWindows(starts, stops), null, warnings(),
                List.of()).numbered(s.numbers).openEnded(profileStart, open);
    }

    /**
     * Each instance ends a step that began where the previous one ended. Nothing marks where the first one
     * begins: it is taken to last one median period, cut at the start of the capture.
     */
    private IterationSplit stopSplit(StepSeries s) {
        int n = s.size();
        long[] stops = s.ends.clone();
        Arrays.sort(stops);
        long[] starts = new long[n];
        for (int i = 1; i < n; i++) starts[i] = stops[i - 1];
        long period = n >= 2 ? StepSeries.medianGap(stops) : stops[0] - profileStart;
        starts[0] = Math.min(stops[0], Math.max(profileStart, stops[0] - period));
        return new IterationSplit(IterationSummary.INFERRED_OPTIMIZER, s.family, "default", true,
                Iterations.ofWindows(starts, stops), null, warnings(), List.of());
    }

    // ------------------------------------------------------------------ candidates when nothing split the profile

    /**
     * Families that repeat, ranked by how well they would split the run into equal steps: a regular period
     * (low variation), most of the run spanned, three or more instances; ties by the earliest start.
     */
    private List<IterationCandidate> candidates() {
        List<Scored> all = new ArrayList<>();
        long from = ev.firstStart();
        long to = ev.lastEnd();
        for (Family f : ev.families()) {
            if (f.dropped() || f.count < 2) continue;
            StepSeries s = series(f);
            if (s.size() < 2) continue;
            String kind = switch (f.kind) {
                case DATALOADER_NEXT -> "dataloader-next";
                case OPTIMIZER_STEP -> "optimizer-step";
                case STEP_HINT -> "named-ranges";
                default -> "op";
            };
            all.add(Scored.of(s, kind, from, to));
        }
        for (Map.Entry<String, StepSeries.Raw> e : numberedFamilies().entrySet()) {
            StepSeries s = StepSeries.mainThread(e.getValue());
            if (s.size() >= 2) all.add(Scored.of(s, "numbered-ranges", from, to));
        }
        // a family spanning a sliver of the run (one layer's ops in a single forward pass) splits nothing
        all.removeIf(x -> x.score() <= 0 || x.candidate().coveragePct() < MIN_CANDIDATE_COVERAGE_PCT);
        all.sort(Comparator.comparingDouble((Scored x) -> -x.score()).thenComparingLong(Scored::first)
                .thenComparing(x -> x.candidate().keyNode()));
        List<IterationCandidate> out = new ArrayList<>();
        for (int i = 0; i < all.size() && i < MAX_CANDIDATES; i++) out.add(all.get(i).candidate());
        return out;
    }

    /** A candidate and how well it splits: regularity × coverage, halved with only two instances (no period to check). */
    private record Scored(IterationCandidate candidate, double score, long first) {
        static Scored of(StepSeries s, String kind, long from, long to) {
            double variation = Math.min(100, s.periodVariationPct()); // 100: no regular period at all
            double coverage = s.coveragePct(from, to);
            double score = Math.max(0, 1 - variation / 100) * coverage / 100 * (s.size() >= MIN_REPEATS ? 1 : 0.5);
            return new Scored(new IterationCandidate(s.family, kind, s.size(), s.medianPeriod(), variation, coverage),
                    score, s.starts[0]);
        }
    }
}
