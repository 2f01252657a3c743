package dlproflint.engine.run;

import dlproflint.engine.RuleLoadException;
import dlproflint.engine.catalog.LoadedRule;
import dlproflint.engine.compile.CompiledPack;
import dlproflint.engine.pack.RulePack;
import org.kie.api.definition.KiePackage;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A pack's rules indexed by their KieBase identity, and its KieBase. Shared by all runs. The KieBase may
 * be loaded on first use ({@link #deferred}) when the catalogue came from a catalogue file of an earlier
 * successful compile: listing rules and checking a configuration then never start the rule engine, and
 * a lint can load it while the profile is being read.
 */
public final class PackRuntime {
    public static final String GLOBAL = "findings";

    /** Loads the compiled pack (from a kjar; it compiled before, so it cannot fail for its content). */
    @FunctionalInterface
    public interface Loader {
        CompiledPack load() throws RuleLoadException;
    }

    private final RulePack pack;
    private final List<LoadedRule> rules;
    private final Map<String, LoadedRule> byKey;
    private final boolean deferred;
    private Loader loader;
    private volatile Loaded loaded;

    private record Loaded(CompiledPack compiled, boolean hasFindingsGlobal, FactTypes factTypes) {
    }

    private PackRuntime(RulePack pack, List<LoadedRule> rules, Loader loader, CompiledPack compiled) {
        this.pack = pack;
        this.rules = List.copyOf(rules);
        this.byKey = rules.stream().collect(Collectors.toUnmodifiableMap(LoadedRule::key, Function.identity()));
        this.deferred = compiled == null;
        this.loader = loader;
        if (compiled != null) loaded = loaded(compiled);
    }

    public static PackRuntime of(CompiledPack compiled, List<LoadedRule> rules) {
        return new PackRuntime(compiled.pack(), rules, null, compiled);
    }

    /** A pack whose KieBase is loaded by {@code loader} on first use. */
    public static PackRuntime deferred(RulePack pack, List<LoadedRule> rules, Loader loader) {
        return new PackRuntime(pack, rules, loader, null);
    }

    private static Loaded loaded(CompiledPack compiled) {
        boolean global = false;
        for (KiePackage p : compiled.kieBase().getKiePackages()) {
            global |= p.getGlobalVariables().stream().anyMatch(g -> g.getName().equals(GLOBAL));
        }
        return new Loaded(compiled, global, FactTypes.of(compiled.kieBase()));
    }

    public RulePack pack() {
        return pack;
    }

    public List<LoadedRule> rules() {
        return rules;
    }

    /** The compiled pack, loading it now if it was deferred (thread-safe: loaded once). */
    public CompiledPack compiled() {
        return load().compiled();
    }

    public boolean hasFindingsGlobal() {
        return load().hasFindingsGlobal();
    }

    /** Whether some rule of the pack can match {@code fact} ({@link FactTypes}); the others are not inserted. */
    boolean sees(Object fact) {
        return load().factTypes().test(fact);
    }

    /** Whether this run has not compiled the pack (catalogue and kjar from a cache or the class path). */
    public boolean fromCache() {
        Loaded l = loaded;
        return l == null || l.compiled().fromCache();
    }

    /** Compiler warnings of a compile in this run (none for a deferred pack: it compiled cleanly before). */
    public List<String> warnings() {
        Loaded l = loaded;
        return deferred || l == null ? List.of() : l.compiled().warnings();
    }

    private Loaded load() {
        Loaded l = loaded;
        if (l != null) return l;
        synchronized (this) {
            if (loaded == null) {
                try {
                    loaded = loaded(loader.load());
                } catch (RuleLoadException e) {
                    throw new IllegalStateException("cannot load compiled pack " + pack.id() + ": " + e.getMessage(), e);
                }
                loader = null;
            }
            return loaded;
        }
    }

    public LoadedRule rule(String packageName, String ruleName) {
        return byKey.get(LoadedRule.key(packageName, ruleName));
    }
}
