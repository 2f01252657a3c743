package dlproflint.engine.catalog;

import dlproflint.engine.RuleLoadException;
import dlproflint.engine.pack.PackFile;
import dlproflint.engine.pack.RulePack;
import org.drools.drl.ast.descr.AnnotationDescr;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.RuleDescr;
import org.drools.drl.parser.DrlParser;
import org.drools.drl.parser.DroolsError;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A pack's rule annotations as the DRL parser reads them, without compiling the pack or building its rule base:
 * what {@code rules list}, {@code rules explain} and {@code rules docs} need of a pack never compiled before, so that
 * they run none of its code (a site pack's conditions can run code when its rule base is built). The strings are the
 * ones a compiled rule carries ({@code RuleCatalogParseTest} compares both on every built-in rule).
 */
public final class DrlCatalog {
    private DrlCatalog() {
    }

    public static List<RuleAnnotations> annotations(RulePack pack) throws RuleLoadException {
        List<RuleAnnotations> out = new ArrayList<>();
        for (PackFile f : pack.drlFiles()) {
            DrlParser parser = new DrlParser();
            PackageDescr pd;
            try {
                pd = parser.parse(false, f.text());
            } catch (Exception | StackOverflowError e) {
                throw new RuleLoadException(f.origin(), 0, "cannot parse DRL: " + e.getClass().getSimpleName());
            }
            if (parser.hasErrors() || pd == null) {
                DroolsError first = parser.getErrors().isEmpty() ? null : parser.getErrors().get(0);
                int line = first == null || first.getLines() == null || first.getLines().length == 0 ? 0 : first.getLines()[0];
                throw new RuleLoadException(f.origin(), line, "DRL syntax error: "
                        + (first == null ? "cannot parse" : dlproflint.findings.OneLine.of(first.getMessage())));
            }
            for (RuleDescr r : pd.getRules()) {
                Map<String, String> values = new TreeMap<>();
                for (AnnotationDescr a : r.getAnnotations()) {
                    Object v = a.getValue();
                    if (v != null) values.put(a.getName(), v instanceof Object[] arr ? Arrays.toString(arr) : v.toString());
                }
                out.add(new RuleAnnotations(pd.getName(), r.getName(), values));
            }
        }
        return out;
    }
}
