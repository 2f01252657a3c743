package dlproflint.engine.compile;

import dlproflint.engine.pack.RulePack;
import org.kie.api.KieBase;

import java.util.List;

/**
 * A pack turned into a KieBase.
 *
 * @param fromCache the KieModule came from the kjar cache (no DRL compilation in this run)
 * @param warnings  compiler warnings as {@code file:line: message} (e.g. DRL10 deprecations); empty
 *                  when loaded from the cache
 */
public record CompiledPack(RulePack pack, KieBase kieBase, boolean fromCache, List<String> warnings) {
}
