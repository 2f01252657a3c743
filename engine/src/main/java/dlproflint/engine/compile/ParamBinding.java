package dlproflint.engine.compile;

import org.drools.drl.ast.descr.AccumulateDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.CollectDescr;
import org.drools.drl.ast.descr.ConditionalElementDescr;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.PatternDescr;
import org.drools.drl.ast.descr.RuleDescr;
import org.drools.drl.parser.DrlParser;
import org.drools.drl.parser.DroolsParserException;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Binds every {@code Param(...)} pattern to the rule it is written in, so a rule reads its parameters by name and
 * never writes its own id: {@code Param(name == "minSteps", $m : value)} in the rule whose {@code @id} is
 * {@code pytorch/host-sync-in-step} is compiled as {@code Param(rule == "pytorch/host-sync-in-step", name == ...)}.
 * The constraint is inserted on the pattern's own line, so compiler messages keep their lines. A file that does not
 * parse is left as it is (the compiler reports its syntax errors).
 */
final class ParamBinding {
    private ParamBinding() {
    }

    static String bind(String drl) {
        DrlParser parser = new DrlParser();
        PackageDescr pd;
        try {
            pd = parser.parse(false, drl);
        } catch (DroolsParserException | RuntimeException e) {
            return drl;
        }
        if (pd == null || parser.hasErrors()) return drl;
        TreeMap<Integer, String> inserts = new TreeMap<>();
        for (RuleDescr rule : pd.getRules()) {
            String id = FactTypeCheck.annotation(rule, "id");
            if (id == null) continue;
            List<PatternDescr> params = new ArrayList<>();
            collect(rule.getLhs(), params);
            for (PatternDescr p : params) {
                int open = openParen(drl, p);
                if (open < 0) continue;
                boolean empty = drl.substring(open + 1).stripLeading().startsWith(")");
                inserts.put(open + 1, "rule == \"" + id.replace("\\", "\\\\").replace("\"", "\\\"") + "\"" + (empty ? "" : ", "));
            }
        }
        if (inserts.isEmpty()) return drl;
        StringBuilder out = new StringBuilder(drl);
        for (var e : inserts.descendingMap().entrySet()) out.insert(e.getKey(), e.getValue());
        return out.toString();
    }

    /** Whether a pattern reads a rule parameter. */
    static boolean isParam(PatternDescr p) {
        String type = p.getObjectType();
        return type != null && (type.equals("Param") || type.equals("dlproflint.engine.Param"));
    }

    private static void collect(BaseDescr d, List<PatternDescr> out) {
        if (d == null) return;
        if (d instanceof PatternDescr p) {
            if (isParam(p)) out.add(p);
            collect(p.getSource(), out);
        } else if (d instanceof AccumulateDescr a) {
            collect(a.getInput(), out);
        } else if (d instanceof CollectDescr c) {
            collect(c.getInputPattern(), out);
        } else if (d instanceof ConditionalElementDescr ce) {
            for (BaseDescr child : List.copyOf(ce.getDescrs())) collect(child, out);
        }
    }

    /** The offset of the '(' after the pattern's type name. */
    private static int openParen(String drl, PatternDescr p) {
        int from = Math.max(0, p.getStartCharacter());
        int at = drl.indexOf("Param", from);
        if (at < 0) return -1;
        int open = drl.indexOf('(', at + "Param".length());
        return open >= 0 && drl.substring(at + "Param".length(), open).isBlank() ? open : -1;
    }
}
