package dlproflint.engine.run;

import org.drools.base.base.ClassObjectType;
import org.drools.base.base.ObjectType;
import org.drools.core.impl.InternalRuleBase;
import org.drools.core.reteoo.ObjectTypeNode;
import org.kie.api.KieBase;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Which facts a pack's rules can see: those whose class (or a supertype) has an object-type node in the pack's rule
 * base, i.e. some pattern, {@code accumulate}, {@code exists} or {@code not} of some rule names it. Every other fact
 * would only be inserted, wrapped in a handle and propagated to nothing: with 100,000 kernels, ops and per-iteration
 * kernel rows, that insertion alone cost each pack seconds. A pack with a pattern on {@code Object} sees everything.
 * Answers are cached per class.
 */
final class FactTypes implements Predicate<Object> {
    private final Set<Class<?>> matched;
    private final boolean everything;
    private final ConcurrentHashMap<Class<?>, Boolean> answers = new ConcurrentHashMap<>();

    private FactTypes(Set<Class<?>> matched, boolean everything) {
        this.matched = matched;
        this.everything = everything;
    }

    /** The classes the rule base has object-type nodes for; everything when they cannot be read. */
    static FactTypes of(KieBase kieBase) {
        if (!(kieBase instanceof InternalRuleBase rb)) return new FactTypes(Set.of(), true);
        Set<Class<?>> classes = new LinkedHashSet<>();
        boolean everything = false;
        for (ObjectTypeNode otn : rb.getRete().getObjectTypeNodes()) {
            ObjectType t = otn.getObjectType();
            if (t instanceof ClassObjectType c) {
                if (c.getClassType() == Object.class) everything = true;
                classes.add(c.getClassType());
            } else {
                everything = true; // a kind of node this filter does not understand: let everything through
            }
        }
        return new FactTypes(classes, everything);
    }

    @Override
    public boolean test(Object fact) {
        if (everything) return true;
        // looked up before a lambda is made: this runs for every fact of every pack (a million on a 1M-launch export),
        // and under the quick compiler each capturing lambda made is a method-handle call and an allocation
        Class<?> cls = fact.getClass();
        Boolean known = answers.get(cls);
        if (known != null) return known;
        boolean seen = false;
        for (Class<?> m : matched) if (m.isAssignableFrom(cls)) seen = true;
        answers.putIfAbsent(cls, seen);
        return seen;
    }
}
