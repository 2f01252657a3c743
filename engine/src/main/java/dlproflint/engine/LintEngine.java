package dlproflint.engine;

import dlproflint.findings.Finding;
import dlproflint.findings.FindingOrder;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.PackInfo;
import dlproflint.findings.SourceLines;
import dlproflint.facts.StackFrame;

import dlproflint.engine.catalog.DrlCatalog;
import dlproflint.engine.catalog.LoadedRule;
import dlproflint.engine.catalog.RuleAnnotations;
import dlproflint.engine.catalog.RuleCatalog;
import dlproflint.engine.compile.BuiltOnce;
import dlproflint.engine.compile.CompiledPack;
import dlproflint.engine.compile.KjarCache;
import dlproflint.engine.compile.PackCompiler;
import dlproflint.engine.pack.PackLoader;
import dlproflint.engine.pack.PackManifest;
import dlproflint.engine.pack.RulePack;
import dlproflint.engine.pack.SiteCodeCheck;
import dlproflint.engine.run.PackRuntime;
import dlproflint.engine.run.RuleDeadline;
import dlproflint.engine.run.RunSettings;
import dlproflint.engine.run.SessionRunner;
import dlproflint.facts.JobFacts;
import dlproflint.facts.KeyMetrics;
import dlproflint.facts.ProfileFacts;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rule engine: one Drools KieBase per rule pack (built-in packs from the class path, user packs
 * from directories, compiled by the same {@link PackCompiler}), applied to one profile's facts at a
 * time. Loading validates everything a run depends on (manifests, DRL, metadata, unique ids,
 * pins, configuration), so errors surface before any profile is read.
 * Thread-safe: {@link #lint} opens fresh sessions per call, so profiles can be linted in parallel.
 */
public final class LintEngine {
    private final List<PackRuntime> packs;
    private final List<LoadedRule> allRules;
    private final RunConfig config;
    private final RunSettings settings;
    private final Duration ruleTimeLimit;

    /**
     * How long the rules may run on one profile (all packs together) by default: the built-in packs need
     * about a second on a million kernel launches, so this only ends runaway site rules, and keeps any run's rule work
     * well inside a minute.
     */
    public static final Duration DEFAULT_RULE_TIME_LIMIT = Duration.ofSeconds(30);

    private LintEngine(List<PackRuntime> packs, RunConfig config) throws RuleLoadException {
        this(packs, config, RunSettings.resolve(config, packs.stream().flatMap(p -> p.rules().stream()).toList()),
                DEFAULT_RULE_TIME_LIMIT);
    }

    private LintEngine(List<PackRuntime> packs, RunConfig config, RunSettings settings, Duration ruleTimeLimit) {
        this.packs = List.copyOf(packs);
        this.allRules = packs.stream().flatMap(p -> p.rules().stream()).toList();
        this.config = config;
        this.settings = settings;
        this.ruleTimeLimit = ruleTimeLimit;
    }

    public static LintEngine load(EngineOptions options) throws RuleLoadException {
        RunConfig config = options.config();
        List<RulePack> sources = new ArrayList<>();
        if (options.includeBuiltin()) sources.addAll(builtinPacks());
        for (Path dir : options.ruleDirs()) sources.addAll(PackLoader.directory(dir));
        sources = selectPacks(sources, config);
        // a site pack's code is checked before any of it is compiled or run
        for (RulePack pack : sources) SiteCodeCheck.check(pack);

        PackCompiler compiler = new PackCompiler(KjarCache.at(options.cacheDir()), EngineVersion.cacheSalt(),
                LintEngine.class.getClassLoader()).withCodeTimeLimit(options.codeTimeLimit());
        List<PackRuntime> runtimes = new ArrayList<>();
        Map<String, LoadedRule> seenIds = new HashMap<>();
        for (RulePack pack : sources) {
            PackRuntime runtime = runtime(compiler, pack, options.catalogOnly());
            for (LoadedRule r : runtime.rules()) {
                LoadedRule first = seenIds.putIfAbsent(r.id(), r);
                if (first != null) {
                    throw new RuleLoadException(r.drl() == null ? pack.source() : r.drl().origin(), r.line(),
                            "duplicate rule id '" + r.id() + "' (rule \"" + r.ruleName() + "\"); already declared at "
                                    + (first.drl() == null ? first.ruleName() : first.drl().origin() + ":" + first.line()));
                }
            }
            runtimes.add(runtime);
        }
        return new LintEngine(runtimes, config);
    }

    /** The packs on this class path, read once per process ({@link BuiltOnce}: they cannot change while it runs). */
    private static final BuiltOnce<Boolean, List<RulePack>> BUILTIN = new BuiltOnce<>();

    private static List<RulePack> builtinPacks() throws RuleLoadException {
        return BUILTIN.get(true, () -> PackLoader.builtin(LintEngine.class.getClassLoader()));
    }

    /**
     * Starts reading the built-in packs and building the rule bases of those shipped precompiled, on a daemon thread,
     * for a command that will lint: the engine it loads later (whatever its options) takes them as they are built,
     * rather than starting on them once the command line, the configuration and the catalogue are read: with a core to
     * spare, that takes them off a small lint's critical path (on two busy cores it gains about 20 ms). Nothing is
     * reported here: a pack that fails fails again where it is loaded.
     *
     * @param jobScope also the packs whose rules match a job's cross-rank facts ({@code scope: job}), which only
     *                 {@code dlprof-lint job} runs
     */
    public static void prefetchBuiltin(boolean jobScope) {
        Thread t = new Thread(() -> {
            try {
                PackCompiler compiler = new PackCompiler(KjarCache.at(null), EngineVersion.cacheSalt(), LintEngine.class.getClassLoader());
                for (RulePack p : builtinPacks()) if (jobScope || !p.manifest().jobScope()) compiler.warm(p);
            } catch (Exception | Error e) { // NOPMD: out of memory included; the load that needs the pack reports it
                // reported where the packs are loaded
            }
        }, "dlprof-lint-prefetch");
        t.setDaemon(true);
        t.start();
    }

    /**
     * A pack compiled and checked before (same content key) is not compiled again: its catalogue is read
     * from the catalogue file stored with its kjar and its KieBase is loaded on first use, so commands that
     * only need the catalogue never start Drools. Otherwise it is compiled now, so a broken pack fails
     * before any profile is read, and its catalogue is stored for the next run.
     */
    private static PackRuntime runtime(PackCompiler compiler, RulePack pack, boolean catalogOnly) throws RuleLoadException {
        Optional<List<RuleAnnotations>> stored = compiler.catalog(pack);
        if (stored.isPresent()) {
            return PackRuntime.deferred(pack, RuleCatalog.read(pack, stored.get()), () -> compiler.compile(pack));
        }
        if (catalogOnly) {
            // listing and explaining run no rule code: the annotations as the DRL parser reads them, nothing compiled
            return PackRuntime.deferred(pack, RuleCatalog.read(pack, DrlCatalog.annotations(pack)), () -> compiler.compile(pack));
        }
        CompiledPack compiled = compiler.compile(pack);
        List<RuleAnnotations> annotations = RuleCatalog.annotations(compiled.kieBase());
        List<LoadedRule> rules = RuleCatalog.read(pack, annotations);
        compiler.storeCatalog(pack, annotations);
        return PackRuntime.of(compiled, rules);
    }

    /** Drops disabled packs, rejects duplicate pack ids, checks pins and minEngine. */
    private static List<RulePack> selectPacks(List<RulePack> all, RunConfig config) throws RuleLoadException {
        Map<String, RulePack> byId = new HashMap<>();
        List<RulePack> kept = new ArrayList<>();
        for (RulePack p : all) {
            RulePack first = byId.putIfAbsent(p.id(), p);
            if (first != null) {
                throw new RuleLoadException(manifestOrigin(p), PackManifest.lineOf(manifestText(p), "id"),
                        "duplicate pack id '" + p.id() + "', already loaded from " + manifestOrigin(first));
            }
            if (config.disabledPacks().contains(p.id())) continue;
            String pin = config.packVersions().get(p.id());
            if (pin != null && !pin.equals(p.version())) {
                throw new RuleLoadException(manifestOrigin(p), PackManifest.lineOf(manifestText(p), "version"),
                        "pack '" + p.id() + "' is version " + p.version() + " but the configuration pins " + pin);
            }
            String min = p.manifest().minEngine();
            if (min != null && PackManifest.compareVersions(EngineVersion.engine(), min) < 0) {
                throw new RuleLoadException(manifestOrigin(p), PackManifest.lineOf(manifestText(p), "minEngine"),
                        "pack '" + p.id() + "' needs engine " + min + " or newer; this is " + EngineVersion.engine());
            }
            kept.add(p);
        }
        for (String pinned : config.packVersions().keySet()) {
            if (!byId.containsKey(pinned)) {
                throw new RuleLoadException("configuration", 0, "pinned pack '" + pinned + "' is not loaded (loaded: "
                        + String.join(", ", byId.keySet().stream().sorted().toList()) + ")");
            }
        }
        for (String disabled : config.disabledPacks()) {
            if (!byId.containsKey(disabled)) {
                throw new RuleLoadException("configuration", 0, "disabled pack '" + disabled + "' is not loaded");
            }
        }
        kept.sort(Comparator.comparing(RulePack::id));
        return kept;
    }

    private static String manifestOrigin(RulePack p) {
        return p.file(PackManifest.FILE_NAME).map(f -> f.origin()).orElse(p.source());
    }

    private static String manifestText(RulePack p) {
        return p.file(PackManifest.FILE_NAME).map(f -> f.text()).orElse("");
    }

    /**
     * The same compiled packs under another run configuration (rule selection, severities,
     * parameters): no recompilation. Pack pins and disabled packs are load-time settings and are
     * taken from {@code newConfig} only as far as they are consistent with what is loaded.
     */
    public LintEngine withConfig(RunConfig newConfig) throws RuleLoadException {
        List<PackRuntime> kept = packs.stream().filter(p -> !newConfig.disabledPacks().contains(p.pack().id())).toList();
        for (var pin : newConfig.packVersions().entrySet()) {
            Optional<PackRuntime> p = packs.stream().filter(x -> x.pack().id().equals(pin.getKey())).findFirst();
            if (p.isEmpty() || !p.get().pack().version().equals(pin.getValue())) {
                throw new RuleLoadException("configuration", 0, "pinned pack '" + pin.getKey() + "' " + pin.getValue()
                        + " is not loaded" + p.map(x -> " (loaded: " + x.pack().version() + ")").orElse(""));
            }
        }
        return new LintEngine(kept, newConfig).withRuleTimeLimit(ruleTimeLimit);
    }

    public RunConfig config() {
        return config;
    }

    /**
     * The same engine with another limit on how long the rules may run on one profile (null or zero: no
     * limit). A run that overruns fails with a {@link dlproflint.engine.run.RuleFailure} naming the rule.
     */
    public LintEngine withRuleTimeLimit(Duration limit) {
        return new LintEngine(packs, config, settings, limit);
    }

    public Duration ruleTimeLimit() {
        return ruleTimeLimit;
    }

    public List<PackInfo> packs() {
        return packs.stream().map(p -> p.pack())
                .map(p -> new PackInfo(p.id(), p.version(), p.manifest().description(), p.source())).toList();
    }

    /** The catalogue: every finding rule of every loaded pack (enabled or not), sorted by id. */
    public List<RuleMetadata> rules() {
        return allRules.stream().filter(r -> !r.derive()).map(LoadedRule::metadata)
                .sorted(Comparator.comparing(RuleMetadata::id)).toList();
    }

    public Optional<RuleMetadata> rule(String id) {
        return rules().stream().filter(r -> r.id().equals(id)).findFirst();
    }

    /** Whether the run configuration lets this rule report. */
    public boolean enabled(String ruleId) {
        return settings.enabled(ruleId);
    }

    /** Every compiled rule, derive rules included, with the file and line that declares it. */
    public List<LoadedRule> loadedRules() {
        return allRules;
    }

    /** The packs as read from their sources (files, manifests), for the test harness and docs. */
    public List<RulePack> sources() {
        return packs.stream().map(p -> p.pack()).toList();
    }

    /** Compiler warnings (e.g. DRL10 deprecations) of packs compiled in this run. */
    public List<String> warnings() {
        return packs.stream().flatMap(p -> p.warnings().stream()).toList();
    }

    /** How many packs came from the compiled-pack cache (for diagnostics and the cache tests). */
    public long packsFromCache() {
        return packs.stream().filter(PackRuntime::fromCache).count();
    }

    /**
     * Loads the KieBases of packs whose loading was deferred (see {@link #load}) now rather than in the first
     * {@link #lint}: a caller starts this on another thread while it reads the profile. Job-scope packs are left
     * to {@link #lintJob}, which only {@code dlprof-lint job} calls: a profile's lint never runs them.
     */
    public void prepare() {
        for (PackRuntime p : packs) {
            if (jobScope(p)) continue;
            if (p.rules().stream().anyMatch(r -> !r.derive() && settings.enabled(r.id()))) p.compiled();
        }
    }

    /**
     * Lints one profile: every profile-scope pack in its own fresh session; findings in {@link FindingOrder}. A
     * finding whose rule gave no source line points at the model's line behind its subject, where the profile knows
     * one ({@link SourceLines}). Findings that claim the same lost time have it counted once, causes before symptoms
     * ({@link dlproflint.engine.run.CauseLinks}).
     */
    public List<Finding> lint(ProfileFacts facts) {
        List<Finding> out = new ArrayList<>(dlproflint.engine.run.CauseLinks.apply(measure(facts), settings::severity));
        out.sort(FindingOrder.COMPARATOR);
        return List.copyOf(out);
    }

    /**
     * Lints one profile as each rule measured it, before findings that claim the same lost time have it counted once
     * ({@link #lint} is this with {@link dlproflint.engine.run.CauseLinks} applied): what a rule's own model says,
     * independent of which other rules fired.
     */
    public List<Finding> measure(ProfileFacts facts) {
        List<Finding> out = new ArrayList<>();
        // the rule bases are loaded before the clock starts: the limit is the rules' time, not the engine's
        for (PackRuntime p : packs) {
            if (!jobScope(p) && p.rules().stream().anyMatch(r -> !r.derive() && settings.enabled(r.id()))) p.compiled();
        }
        RuleDeadline deadline = RuleDeadline.after(ruleTimeLimit);
        KeyMetrics metrics = KeyMetrics.of(facts);
        for (PackRuntime p : builtinFirst()) {
            if (jobScope(p)) continue;
            for (Finding f : SessionRunner.run(p, settings, facts, metrics, deadline)) {
                StackFrame where = f.location() != null ? null : SourceLines.locate(f.subject(), facts);
                out.add(where == null ? f : f.withLocation(where));
            }
        }
        out.sort(FindingOrder.COMPARATOR);
        return List.copyOf(out);
    }

    /**
     * Lints a distributed job's cross-rank facts: every job-scope pack ({@code scope: job}) in its own fresh session,
     * once per job; findings (belonging to {@code path}, the job's label) in {@link FindingOrder}.
     */
    public List<Finding> lintJob(JobFacts facts, String path) {
        List<Finding> out = new ArrayList<>();
        for (PackRuntime p : packs) if (jobScope(p)) p.compiled();
        RuleDeadline deadline = RuleDeadline.after(ruleTimeLimit);
        for (PackRuntime p : builtinFirst()) {
            if (jobScope(p)) out.addAll(SessionRunner.run(p, settings, path, facts::facts, new KeyMetrics(java.util.Map.of()), deadline));
        }
        out.sort(FindingOrder.COMPARATOR);
        return List.copyOf(out);
    }

    /**
     * The order packs run in: the built-in packs before every site pack, so nothing a site rule does to the facts it
     * is given can change what a built-in rule finds (the findings are sorted afterwards; the order is not visible).
     */
    private List<PackRuntime> builtinFirst() {
        List<PackRuntime> order = new ArrayList<>(packs);
        order.sort(Comparator.comparing((PackRuntime p) -> !p.pack().builtin()));
        return order;
    }

    /** Whether a loaded pack's rules match a job's cross-rank facts ({@code scope: job}). */
    public boolean jobScope(String packId) {
        return packs.stream().anyMatch(p -> p.pack().id().equals(packId) && jobScope(p));
    }

    private static boolean jobScope(PackRuntime p) {
        return p.pack().manifest().jobScope(); // from the manifest: no KieBase loaded to tell
    }
}
