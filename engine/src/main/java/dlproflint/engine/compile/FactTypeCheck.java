package dlproflint.engine.compile;

import dlproflint.engine.RuleLoadException;
import dlproflint.engine.pack.PackFile;
import dlproflint.engine.pack.RulePack;
import org.drools.drl.ast.descr.AccumulateDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.CollectDescr;
import org.drools.drl.ast.descr.ConditionalElementDescr;
import org.drools.drl.ast.descr.ImportDescr;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.PatternDescr;
import org.drools.drl.ast.descr.RuleDescr;
import org.drools.drl.ast.descr.TypeDeclarationDescr;
import org.drools.drl.parser.DrlParser;
import org.drools.drl.parser.DroolsParserException;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks, before compiling, that every pattern of every rule names a fact type that exists.
 * The executable-model compiler reports an unknown type poorly: without a line, or (inside
 * {@code accumulate}) as an exception about an unrelated variable. A typo such as
 * {@code KernelFacts(...)} is the commonest site-rule mistake, so it gets a precise
 * {@code file:line: rule "x": unknown fact type 'KernelFacts'} here. Files that do not parse are
 * skipped: the compiler reports their syntax errors with lines itself.
 */
final class FactTypeCheck {
    private FactTypeCheck() {
    }

    static void check(RulePack pack, ClassLoader loader) throws RuleLoadException {
        Map<PackFile, PackageDescr> parsed = new LinkedHashMap<>();
        Set<String> declared = new HashSet<>();
        for (PackFile f : pack.drlFiles()) {
            DrlParser parser = new DrlParser();
            PackageDescr pd;
            try {
                pd = parser.parse(false, f.text());
            } catch (DroolsParserException | RuntimeException e) {
                continue;
            }
            if (pd == null || parser.hasErrors()) continue;
            parsed.put(f, pd);
            for (TypeDeclarationDescr t : pd.getTypeDeclarations()) {
                declared.add(t.getTypeName());
                declared.add(pd.getName() + "." + t.getTypeName());
            }
        }
        for (Map.Entry<PackFile, PackageDescr> e : parsed.entrySet()) {
            Resolver r = new Resolver(e.getValue(), declared, loader);
            for (RuleDescr rule : e.getValue().getRules()) {
                walk(rule.getLhs(), rule, r, e.getKey());
            }
        }
    }

    private static void walk(BaseDescr d, RuleDescr rule, Resolver r, PackFile file) throws RuleLoadException {
        if (d == null) return;
        if (d instanceof PatternDescr p) {
            String type = p.getObjectType();
            if (type != null && !r.resolves(type)) {
                throw new RuleLoadException(file.origin(), p.getLine(), "rule \"" + rule.getName() + "\": unknown fact type '"
                        + type + "' (check the spelling and the imports; fact types are in dlproflint.facts)");
            }
            walk(p.getSource(), rule, r, file);
        } else if (d instanceof AccumulateDescr a) {
            walk(a.getInput(), rule, r, file);
        } else if (d instanceof CollectDescr c) {
            walk(c.getInputPattern(), rule, r, file);
        } else if (d instanceof ConditionalElementDescr ce) {
            for (BaseDescr child : List.copyOf(ce.getDescrs())) walk(child, rule, r, file);
        }
    }

    /** Drools' own lookup order, simplified: declared types, qualified names, imports, own package, java.lang. */
    private static final class Resolver {
        private final PackageDescr pkg;
        private final Set<String> declared;
        private final ClassLoader loader;

        Resolver(PackageDescr pkg, Set<String> declared, ClassLoader loader) {
            this.pkg = pkg;
            this.declared = declared;
            this.loader = loader;
        }

        boolean resolves(String raw) {
            String t = raw.replaceAll("<.*>", "").replace("[]", "").trim();
            if (t.isEmpty() || declared.contains(t)) return true;
            if (Set.of("int", "long", "double", "float", "boolean", "short", "byte", "char").contains(t)) return true;
            if (loads(t)) return true;
            for (ImportDescr i : pkg.getImports()) {
                String target = i.getTarget();
                if (target.endsWith(".*") && loads(target.substring(0, target.length() - 1) + t)) return true;
                if (target.equals(t) || target.endsWith("." + t) && loads(target)) return true;
                // nested type through an imported outer class: Outer.Inner
                int dot = t.indexOf('.');
                if (dot > 0 && target.endsWith("." + t.substring(0, dot)) && loads(target + t.substring(dot))) return true;
            }
            return loads(pkg.getName() + "." + t) || loads("java.lang." + t);
        }

        /** Loads a.b.C, or a.b.C$D for a nested a.b.C.D. */
        private boolean loads(String name) {
            String n = name;
            while (true) {
                try {
                    Class.forName(n, false, loader);
                    return true;
                } catch (ClassNotFoundException | LinkageError e) {
                    int dot = n.lastIndexOf('.');
                    if (dot < 0) return false;
                    n = n.substring(0, dot) + "$" + n.substring(dot + 1);
                }
            }
        }
    }
}
