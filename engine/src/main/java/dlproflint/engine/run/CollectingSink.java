package dlproflint.engine.run;

import dlproflint.findings.Fingerprint;
import dlproflint.findings.Impact;

import dlproflint.findings.Finding;
import dlproflint.engine.FindingSink;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.Subject;
import dlproflint.engine.catalog.LoadedRule;
import dlproflint.facts.StackFrame;
import org.kie.api.definition.rule.Rule;
import org.kie.api.runtime.rule.RuleContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code findings} global of one session: turns a rule's {@code report(...)} call into a
 * {@link Finding}, taking id, pack, category and help link from the firing rule's metadata and the
 * severity from the run settings (a pin, else from the finding's impact, else the rule's own). One instance per session, never shared.
 */
final class CollectingSink implements FindingSink {
    private final PackRuntime pack;
    private final RunSettings settings;
    private final String profilePath;
    private final List<Finding> findings = new ArrayList<>();

    CollectingSink(PackRuntime pack, RunSettings settings, String profilePath) {
        this.pack = pack;
        this.settings = settings;
        this.profilePath = profilePath;
    }

    @Override
    public void report(RuleContext kcontext, Subject subject, String problem, String recommendation,
                       Map<String, Object> evidence) {
        report(kcontext, subject, problem, recommendation, evidence, null, null);
    }

    @Override
    public void report(RuleContext kcontext, Subject subject, String problem, String recommendation,
                       Map<String, Object> evidence, StackFrame location) {
        report(kcontext, subject, problem, recommendation, evidence, location, null);
    }

    @Override
    public void report(RuleContext kcontext, Subject subject, String problem, String recommendation,
                       Map<String, Object> evidence, Impact impact) {
        report(kcontext, subject, problem, recommendation, evidence, null, impact);
    }

    @Override
    public void report(RuleContext kcontext, Subject subject, String problem, String recommendation,
                       Map<String, Object> evidence, StackFrame location, Impact impact) {
        Rule rule = kcontext.getRule();
        LoadedRule r = pack.rule(rule.getPackageName(), rule.getName());
        if (r == null || r.derive()) {
            throw new IllegalStateException("rule \"" + rule.getName() + "\" reported a finding but is "
                    + (r == null ? "unknown to the catalogue" : "a @kind(\"derive\") rule; only finding rules report"));
        }
        RuleMetadata m = r.metadata();
        Subject s = Objects.requireNonNull(subject, () -> m.id() + ": report() needs a subject (Subject.profile() for the whole profile)");
        findings.add(new Finding(m.id(), m.packId(), m.packVersion(), settings.severity(m.id(), impact), m.category(),
                Objects.requireNonNull(problem, m.id() + ": report() needs a problem text"),
                recommendation == null ? "" : recommendation,
                evidence == null ? Map.of() : evidence, s, location, m.helpUri(), profilePath,
                Fingerprint.of(m.id(), s), impact));
    }

    List<Finding> findings() {
        return findings;
    }
}
