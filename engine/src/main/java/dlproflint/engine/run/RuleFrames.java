package dlproflint.engine.run;

import dlproflint.engine.catalog.LoadedRule;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which rule a session thread is stuck in while Drools evaluates conditions (no action is running, so
 * no agenda event names it). The executable model compiles constraints into classes with hashed names,
 * but the methods they call keep theirs: a DRL {@code function}, or a helper of the rule's own code. The
 * stack's methods above the engine's frames are looked up in the condition ({@code when} part) of each
 * rule of the pack; the first rule whose conditions call one of them is the one.
 */
final class RuleFrames {
    private static final Pattern THEN = Pattern.compile("(?m)^\\s*then\\b");

    private RuleFrames() {
    }

    static LoadedRule find(PackRuntime pack, StackTraceElement[] stack) {
        Set<String> called = new LinkedHashSet<>();
        for (StackTraceElement e : stack) {
            String cls = e.getClassName();
            if (cls.startsWith("org.drools.") || cls.startsWith("org.kie.")) break; // the engine called the rule code
            if (cls.startsWith("java.") || cls.startsWith("jdk.") || cls.startsWith("sun.")) continue;
            String m = e.getMethodName();
            if (!m.startsWith("lambda$") && !m.equals("test") && !m.equals("apply") && !m.startsWith("<")) called.add(m);
        }
        if (called.isEmpty()) return null;
        for (String method : called) {
            Pattern call = Pattern.compile("\\b" + Pattern.quote(method) + "\\s*\\(");
            for (LoadedRule r : pack.rules()) {
                String when = conditions(r);
                if (when != null && call.matcher(when).find()) return r;
            }
        }
        return null;
    }

    /** The text from the rule's header line to its {@code then}, or null when the file is unknown. */
    private static String conditions(LoadedRule r) {
        if (r.drl() == null || r.line() <= 0) return null;
        List<String> lines = new ArrayList<>(List.of(r.drl().text().split("\n", -1)));
        if (r.line() > lines.size()) return null;
        String rest = String.join("\n", lines.subList(r.line() - 1, lines.size()));
        var then = THEN.matcher(rest);
        return then.find() ? rest.substring(0, then.start()) : rest;
    }
}
