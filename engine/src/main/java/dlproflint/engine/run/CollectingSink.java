package dlproflint.engine.run;

import dlproflint.findings.Fingerprint;
import dlproflint.findings.Impact;

import dlproflint.findings.Finding;
import dlproflint.findings.FindingOrder;
import dlproflint.engine.FindingSink;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.Subject;
import dlproflint.engine.catalog.LoadedRule;
import dlproflint.facts.StackFrame;
import org.kie.api.definition.rule.Rule;
import org.kie.api.runtime.rule.RuleContext;

import dlproflint.findings.EvidenceKey;
import dlproflint.findings.Message;
import dlproflint.findings.MessageSpec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code findings} global of one session: turns a rule's {@code report(...)} call into a
 * {@link Finding}, taking id, pack, category and help link from the firing rule's metadata and the
 * severity from the run settings (a pin, else from the finding's impact, else the rule's own). One instance per session, never shared.
 *
 * <p>A rule reports at most {@link #MAX_PER_RULE} findings on one profile: the ones first in {@link FindingOrder} (what
 * costs most) are kept in a bounded heap, and the rest become one note saying how many were left out. A rule that
 * reports each of 100,000 kernels otherwise made every later step (source lines, every report, SARIF's limits)
 * pay for 100,000 findings.
 */
final class CollectingSink implements FindingSink {
    private final PackRuntime pack;
    private final RunSettings settings;
    private final String profilePath;
    /** At most this many findings of one rule on one profile are kept. */
    public static final int MAX_PER_RULE = 1_000;
    /** Per rule: its kept findings, the last in {@link FindingOrder} on top (the first to give way). */
    private final Map<String, java.util.PriorityQueue<Finding>> byRule = new java.util.LinkedHashMap<>();
    private final Map<String, Integer> leftOut = new java.util.LinkedHashMap<>();
    private final Map<String, RuleMetadata> metadata = new java.util.HashMap<>();

    CollectingSink(PackRuntime pack, RunSettings settings, String profilePath) {
        this.pack = pack;
        this.settings = settings;
        this.profilePath = profilePath;
    }

    @Override
    public void report(RuleContext kcontext, Subject subject, Message message, String recommendation,
                       Map<String, Object> evidence) {
        report(kcontext, subject, message, recommendation, evidence, null, null);
    }

    @Override
    public void report(RuleContext kcontext, Subject subject, Message message, String recommendation,
                       Map<String, Object> evidence, StackFrame location) {
        report(kcontext, subject, message, recommendation, evidence, location, null);
    }

    @Override
    public void report(RuleContext kcontext, Subject subject, Message message, String recommendation,
                       Map<String, Object> evidence, Impact impact) {
        report(kcontext, subject, message, recommendation, evidence, null, impact);
    }

    @Override
    public void report(RuleContext kcontext, Subject subject, Message message, String recommendation,
                       Map<String, Object> evidence, StackFrame location, Impact impact) {
        Rule rule = kcontext.getRule();
        LoadedRule r = pack.rule(rule.getPackageName(), rule.getName());
        if (r == null || r.derive()) {
            throw new IllegalStateException("rule \"" + rule.getName() + "\" reported a finding but is "
                    + (r == null ? "unknown to the catalogue" : "a @kind(\"derive\") rule; only finding rules report"));
        }
        RuleMetadata m = r.metadata();
        Subject s = Objects.requireNonNull(subject, () -> m.id() + ": report() needs a subject (Subject.profile() for the whole profile)");
        Objects.requireNonNull(message, () -> m.id() + ": report() needs a Message.of(\"<id>\", ...) of its @messages");
        Map<String, Object> ev = evidence == null ? Map.of() : evidence;
        checkEvidence(m, ev);
        MessageSpec spec = m.message(message.id()).orElseThrow(() -> new IllegalStateException(m.id() + ": no message '"
                + message.id() + "' in its @messages (declared: " + String.join(", ", m.messages().stream().map(MessageSpec::id).toList()) + ")"));
        Map<String, Object> data = new LinkedHashMap<>();
        for (String name : spec.placeholders()) {
            if (message.data().containsKey(name)) data.put(name, message.data().get(name));
            else if (ev.containsKey(name)) data.put(name, ev.get(name));
        }
        String problem;
        try {
            problem = spec.render(data);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(m.id() + ": " + e.getMessage(), e);
        }
        keep(m, new Finding(m.id(), m.packId(), m.packVersion(), settings.severity(m.id(), impact), m.category(),
                problem, recommendation == null ? "" : recommendation, ev, s, location, m.helpUri(), profilePath,
                Fingerprint.of(m.id(), s), impact, spec.id(), Collections.unmodifiableMap(data)));
    }

    /** A rule that declares its evidence keys reports no other, and each of the declared type. */
    private static void checkEvidence(RuleMetadata m, Map<String, Object> evidence) {
        if (m.evidence().isEmpty()) return;
        for (Map.Entry<String, Object> e : evidence.entrySet()) {
            EvidenceKey k = m.evidence().stream().filter(x -> x.key().equals(e.getKey())).findFirst().orElseThrow(() ->
                    new IllegalStateException(m.id() + ": evidence '" + e.getKey() + "' is not declared in its @evidence"));
            if (!k.type().accepts(e.getValue())) {
                throw new IllegalStateException(m.id() + ": evidence '" + e.getKey() + "' is declared " + k.type().label()
                        + " but is " + e.getValue() + " (" + e.getValue().getClass().getSimpleName() + ")");
            }
        }
    }

    private void keep(RuleMetadata m, Finding f) {
        metadata.putIfAbsent(m.id(), m);
        java.util.PriorityQueue<Finding> kept = byRule.computeIfAbsent(m.id(),
                id -> new java.util.PriorityQueue<>(FindingOrder.COMPARATOR.reversed()));
        kept.add(f);
        if (kept.size() > MAX_PER_RULE) {
            kept.poll();
            leftOut.merge(m.id(), 1, Integer::sum);
        }
    }

    /** The kept findings, and per rule that reported too many, one note saying how many were left out. */
    List<Finding> findings() {
        List<Finding> out = new ArrayList<>();
        for (java.util.PriorityQueue<Finding> kept : byRule.values()) out.addAll(kept);
        for (Map.Entry<String, Integer> e : leftOut.entrySet()) {
            RuleMetadata m = metadata.get(e.getKey());
            Subject s = Subject.metric("findings-left-out");
            out.add(new Finding(m.id(), m.packId(), m.packVersion(), dlproflint.findings.Severity.NOTE, m.category(),
                    "rule " + m.id() + " reported " + (MAX_PER_RULE + e.getValue()) + " findings on this profile; the "
                            + MAX_PER_RULE + " that cost most are listed and " + e.getValue() + " more left out",
                    "Fix the listed ones first; a rule that reports one finding per kernel or op of a profile with so many"
                            + " is better written to report their total.",
                    Map.of("reported", MAX_PER_RULE + e.getValue(), "listed", MAX_PER_RULE, "leftOut", e.getValue()),
                    s, null, m.helpUri(), profilePath, Fingerprint.of(m.id(), s), null));
        }
        return out;
    }
}
