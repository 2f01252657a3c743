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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks, before compiling, that every pattern of every rule names a fact type that exists.
 * The executable-model compiler reports an unknown type poorly: without a line, or (inside
 * {@code accumulate}) as an exception about an unrelated variable. A typo such as
 * {@code KernelFacts(...)} is the commonest site-rule mistake, so it gets a precise
 * {@code file:line: rule "x": unknown fact type 'KernelFacts'} here. Files that do not parse are
 * skipped: the compiler reports their syntax errors with lines itself.
 *
 * <p>It also checks every {@code Param(...)} pattern: it names one parameter the rule declares in {@code @params}
 * ({@code name == "<param>"}) and no rule (the engine binds it to its own, {@link ParamBinding}). A typo there would
 * otherwise make the rule silently never fire, since no such parameter fact is ever inserted. And every literal
 * message id of the consequence ({@code Message.of("<id>", ...)}) must be one its {@code @messages} declare.
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
                checkParamReads(rule.getLhs(), rule, e.getKey());
                checkMessageIds(rule, e.getKey());
            }
        }
    }

    private static void walk(BaseDescr d, RuleDescr rule, Resolver r, PackFile file) throws RuleLoadException {
        if (d == null) return;
        if (d instanceof PatternDescr p) {
            String type = p.getObjectType();
            if ("RuleParam".equals(type) || "dlproflint.engine.RuleParam".equals(type)) {
                throw new RuleLoadException(file.origin(), p.getLine(), "rule \"" + rule.getName() + "\": RuleParam is gone; read a"
                        + " parameter by its name alone: Param(name == \"<param>\", $v : value) (the engine binds it to this rule)");
            }
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

    private static final Pattern RULE_EQ = Pattern.compile("^\\s*rule\\s*==\\s*\"([^\"]*)\"\\s*$");
    private static final Pattern NAME_EQ = Pattern.compile("^\\s*name\\s*==\\s*\"([^\"]*)\"\\s*$");

    private static void checkParamReads(BaseDescr d, RuleDescr rule, PackFile file) throws RuleLoadException {
        if (d == null) return;
        if (d instanceof PatternDescr p) {
            String type = p.getObjectType();
            if (ParamBinding.isParam(p)) checkParamRead(p, rule, file);
            checkParamReads(p.getSource(), rule, file);
        } else if (d instanceof AccumulateDescr a) {
            checkParamReads(a.getInput(), rule, file);
        } else if (d instanceof CollectDescr c) {
            checkParamReads(c.getInputPattern(), rule, file);
        } else if (d instanceof ConditionalElementDescr ce) {
            for (BaseDescr child : List.copyOf(ce.getDescrs())) checkParamReads(child, rule, file);
        }
    }

    private static void checkParamRead(PatternDescr p, RuleDescr rule, PackFile file) throws RuleLoadException {
        String where = "rule \"" + rule.getName() + "\": ";
        String ownId = annotation(rule, "id");
        String readName = null;
        for (BaseDescr c : p.getConstraint().getDescrs()) {
            String text = c.getText() == null ? c.toString() : c.getText();
            if (RULE_EQ.matcher(text).matches() || text.matches("(?s)\\s*rule\\b.*")) {
                throw new RuleLoadException(file.origin(), p.getLine(), where + "a Param pattern names no rule: the engine binds it"
                        + " to the rule it is written in; write Param(name == \"<param>\", $v : value)");
            }
            Matcher m = NAME_EQ.matcher(text);
            if (m.matches()) readName = m.group(1);
        }
        if (ownId == null) {
            throw new RuleLoadException(file.origin(), p.getLine(), where + "reads a parameter but has no @id to bind it to");
        }
        if (readName == null) {
            throw new RuleLoadException(file.origin(), p.getLine(), where + "a Param pattern must name its parameter:"
                    + " Param(name == \"<param>\", $v : value)");
        }
        String declared = annotation(rule, "params");
        List<String> names = new java.util.ArrayList<>();
        if (declared != null) {
            Matcher m = DECLARED_NAME.matcher(declared);
            while (m.find()) names.add(m.group(1));
        }
        if (!names.contains(readName)) {
            throw new RuleLoadException(file.origin(), p.getLine(), where + "reads parameter '" + readName + "', which its @params does not declare"
                    + " (declared: " + (names.isEmpty() ? "none" : String.join(", ", names)) + ")");
        }
    }

    private static final Pattern MESSAGE_OF = Pattern.compile("\\bMessage\\s*\\.\\s*of\\s*\\(\\s*\"([^\"]*)\"");
    private static final Pattern DECLARED_MESSAGE = Pattern.compile("(?:^|\"|,)\\s*([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\\s*=");

    /** Every {@code Message.of("<id>"} of the consequence names a message of the rule's {@code @messages}. */
    private static void checkMessageIds(RuleDescr rule, PackFile file) throws RuleLoadException {
        Object rhs = rule.getConsequence();
        if (rhs == null) return;
        String text = rhs.toString();
        Matcher m = MESSAGE_OF.matcher(text);
        List<String> ids = null;
        while (m.find()) {
            if (ids == null) {
                ids = new java.util.ArrayList<>();
                String declared = annotation(rule, "messages");
                if (declared != null) {
                    Matcher d = DECLARED_MESSAGE.matcher(declared);
                    while (d.find()) ids.add(d.group(1));
                }
            }
            if (!ids.contains(m.group(1))) {
                int line = lineOf(file.text(), rule.getLine(), Pattern.compile("\\bMessage\\s*\\.\\s*of\\s*\\(\\s*\""
                        + Pattern.quote(m.group(1)) + "\""));
                throw new RuleLoadException(file.origin(), line, "rule \"" + rule.getName() + "\": reports message '" + m.group(1)
                        + "', which its @messages does not declare (declared: " + (ids.isEmpty() ? "none" : String.join(", ", ids)) + ")");
            }
        }
    }

    /** The 1-based line of the first match of {@code p} at or after line {@code from}, else {@code from}. */
    private static int lineOf(String text, int from, Pattern p) {
        String[] lines = text.split("\n", -1);
        int offset = 0;
        for (int i = 0; i < lines.length; i++) {
            if (i + 1 >= from) {
                Matcher m = p.matcher(text);
                if (m.find(offset)) return 1 + (int) text.substring(0, m.start()).chars().filter(c -> c == '\n').count();
                return from;
            }
            offset += lines[i].length() + 1;
        }
        return from;
    }

    /** A parameter name at the start of a {@code @params} entry: {@code "name = ..."}. */
    private static final Pattern DECLARED_NAME = Pattern.compile("(?:^|\"|,)\\s*[a-z]+(?:\\([^)]*\\))?\\s+([A-Za-z][A-Za-z0-9_]*)\\s*=");

    static String annotation(RuleDescr rule, String name) {
        var a = rule.getAnnotation(name);
        if (a == null) return null;
        String s = a.getSingleValueAsString();
        if (s == null) return null;
        s = s.trim();
        if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) s = s.substring(1, s.length() - 1);
        return s;
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
