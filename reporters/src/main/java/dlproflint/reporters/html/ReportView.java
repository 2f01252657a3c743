package dlproflint.reporters.html;

import dlproflint.findings.LintRun;
import dlproflint.findings.PackInfo;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.RuleMetadata;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The whole report: run header, one {@link ProfileView} per profile, rules and packs appendix. */
public record ReportView(String toolVersion, List<Pack> packs, List<Rule> rules, List<ProfileView> profiles,
                         int errors, int warnings, int notes, int suppressed, JobView job) {

    public record Pack(String id, String version, String description, String source) {
    }

    public record Rule(String id, String name, String severity, String category, String pack, String summary,
                       String helpHref) {
    }

    public static ReportView of(LintRun run) {
        Map<String, RuleMetadata> byId = new LinkedHashMap<>();
        List<Rule> rules = new ArrayList<>();
        for (RuleMetadata r : run.rules() == null ? List.<RuleMetadata>of() : run.rules()) {
            byId.putIfAbsent(r.id(), r);
            rules.add(new Rule(Text.clean(r.id()), Text.clean(r.name()),
                    r.severity() == null ? "\u2014" : r.severity().label(), Text.orDash(r.category()),
                    Text.clean(r.packId() + (r.packVersion() == null ? "" : "@" + r.packVersion())),
                    Text.clean(r.summary()), Links.safeHref(r.helpUri())));
        }
        List<Pack> packs = new ArrayList<>();
        for (PackInfo p : run.packs() == null ? List.<PackInfo>of() : run.packs()) {
            packs.add(new Pack(Text.cell(p.id()), Text.cell(p.version()), Text.clean(p.description()),
                    Text.clean(p.source())));
        }
        List<ProfileView> profiles = new ArrayList<>();
        List<ProfileResult> results = run.results() == null ? List.of() : run.results();
        for (int i = 0; i < results.size(); i++) {
            profiles.add(ProfileView.of(results.get(i), byId, i + 1));
        }
        int e = 0, w = 0, n = 0, s = 0;
        for (ProfileView p : profiles) {
            e += p.errors();
            w += p.warningCount();
            n += p.notes();
            s += p.suppressed();
        }
        return new ReportView(run.toolVersion() == null ? "\u2014" : Text.cell(run.toolVersion()), packs, rules, profiles, e, w, n, s,
                run.isJob() && !profiles.isEmpty() ? JobView.of(run.job().facts(), profiles.get(0).id()) : null);
    }
}
