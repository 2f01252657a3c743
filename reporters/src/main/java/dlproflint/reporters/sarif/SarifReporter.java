package dlproflint.reporters.sarif;

import com.contrastsecurity.sarif.ArtifactLocation;
import com.contrastsecurity.sarif.Fingerprints;
import com.contrastsecurity.sarif.Location;
import com.contrastsecurity.sarif.Message;
import com.contrastsecurity.sarif.PartialFingerprints;
import com.contrastsecurity.sarif.PhysicalLocation;
import com.contrastsecurity.sarif.PropertyBag;
import com.contrastsecurity.sarif.Region;
import com.contrastsecurity.sarif.ReportingDescriptor;
import com.contrastsecurity.sarif.Result;
import com.contrastsecurity.sarif.Run;
import com.contrastsecurity.sarif.RunAutomationDetails;
import com.contrastsecurity.sarif.SarifSchema210;
import com.contrastsecurity.sarif.Tool;
import com.contrastsecurity.sarif.ToolComponent;
import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.Severity;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.reporters.EvidenceValues;
import dlproflint.findings.FindingOrder;
import dlproflint.reporters.ProfileNames;
import dlproflint.reporters.ReportException;
import dlproflint.reporters.Reporter;
import dlproflint.reporters.json.JsonReporter;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SARIF 2.1.0 for GitHub code scanning, a thin layer over the java-sarif POJOs: one run per profile
 * ({@code automationDetails.id = dlprof-lint/<profile-stem>/}, so each profile is its own category),
 * the full rule catalogue in {@code tool.driver.rules}, and every result with a physical location
 * chosen by {@link SourceLocator}. The whole log is built, located and checked against
 * {@link GithubLimits} before the first byte is written. See docs/sarif.md.
 */
public final class SarifReporter implements Reporter {
    public static final String FORMAT = "sarif";
    public static final URI SCHEMA_URI = URI.create("https://json.schemastore.org/sarif-2.1.0.json");
    public static final String TOOL_NAME = "dlprof-lint";
    public static final String CATEGORY_PREFIX = "dlprof-lint/";
    /** Key of our own fingerprint in {@code result.fingerprints} (baselines, other SARIF consumers). */
    public static final String FINGERPRINT_KEY = "dlprofLint/v1";
    public static final String PRIMARY_HASH_KEY = "primaryLocationLineHash";
    public static final String SRCROOT = "%SRCROOT%";

    private final SarifOptions options;

    public SarifReporter(SarifOptions options) {
        this.options = options;
    }

    @Override
    public void render(LintRun run, OutputStream out) throws IOException {
        SarifSchema210 log = toSarif(run);
        SarifJson.MAPPER.writeValue(out, log);
        out.write('\n');
        out.flush();
    }

    /** The complete log; throws before anything is written when a result cannot be located. */
    public SarifSchema210 toSarif(LintRun run) throws ReportException {
        if (run.results().size() > GithubLimits.MAX_RUNS) {
            throw new ReportException("SARIF: " + run.results().size() + " profiles exceed GitHub's limit of "
                    + GithubLimits.MAX_RUNS + " runs per file; lint at most " + GithubLimits.MAX_RUNS
                    + " profiles per SARIF report");
        }
        SourceLocator locator = new SourceLocator(options);
        List<String> stems = ProfileNames.stems(run.results());
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < run.results().size(); i++) {
            runs.add(run(run, run.results().get(i), stems.get(i), locator));
        }
        return new SarifSchema210()
                .with$schema(SCHEMA_URI)
                .withVersion(SarifSchema210.Version._2_1_0)
                .withRuns(runs);
    }

    private Run run(LintRun lint, ProfileResult result, String stem, SourceLocator locator) throws ReportException {
        List<Finding> findings = FindingOrder.sorted(result.findings());
        if (findings.size() > GithubLimits.MAX_RESULTS_PER_RUN) {
            throw new ReportException("SARIF: profile " + result.facts().profile().path() + " has " + findings.size()
                    + " findings, over GitHub's limit of " + GithubLimits.MAX_RESULTS_PER_RUN + " results per run");
        }
        // Rules sorted by id; a finding whose rule is not in the catalogue gets a minimal descriptor,
        // so every ruleId resolves in driver.rules and ruleIndex is always valid.
        Map<String, ReportingDescriptor> rules = new TreeMap<>();
        for (RuleMetadata r : lint.rules()) rules.putIfAbsent(r.id(), RuleDescriptors.of(r));
        for (Finding f : findings) rules.computeIfAbsent(f.ruleId(), id -> RuleDescriptors.synthesized(f));
        if (rules.size() > GithubLimits.MAX_RULES_PER_RUN) {
            throw new ReportException("SARIF: " + rules.size() + " rules exceed GitHub's limit of "
                    + GithubLimits.MAX_RULES_PER_RUN + " rules per run");
        }
        Map<String, Integer> index = new LinkedHashMap<>();
        for (String id : rules.keySet()) index.put(id, index.size());

        ProfileInfo profile = result.facts().profile();
        List<Result> results = new ArrayList<>();
        Map<String, RuleMetadata> byId = new java.util.HashMap<>();
        for (RuleMetadata r : lint.rules()) byId.putIfAbsent(r.id(), r);
        for (Finding f : findings) {
            Result r = result(f, index.get(f.ruleId()), result.facts(), locator);
            withMessageId(r.getMessage(), f, byId.get(f.ruleId()));
            results.add(r);
        }

        ToolComponent driver = new ToolComponent()
                .withName(TOOL_NAME)
                .withVersion(lint.toolVersion())
                .withInformationUri(URI.create(JsonReporter.INFORMATION_URI))
                .withRules(new LinkedHashSet<>(rules.values()));
        PropertyBag runProps = new PropertyBag()
                .withAdditionalProperty("profile", profile.path())
                .withAdditionalProperty("profileFormat", profile.format())
                .withAdditionalProperty("packs", packs(lint))
                .withAdditionalProperty("suppressedCount", result.suppressed() == null ? 0 : result.suppressed().size());
        Map<String, Object> steps = steps(result.facts().iterationSummary());
        if (!steps.isEmpty()) runProps.withAdditionalProperty("steps", steps);
        if (lint.isJob()) runProps.withAdditionalProperty("job", job(lint.job().facts()));
        Run sarifRun = new Run()
                .withTool(new Tool().withDriver(driver))
                .withAutomationDetails(new RunAutomationDetails().withId(CATEGORY_PREFIX + stem + "/"));
        if (!locator.repository()) {
            // outside a git checkout the URIs are relative to the working directory: say which one it was
            sarifRun.withOriginalUriBaseIds(new com.contrastsecurity.sarif.OriginalUriBaseIds()
                    .withAdditionalProperty(SRCROOT, new ArtifactLocation().withUri(locator.rootUri().toString())));
        }
        return sarifRun.withResults(results).withProperties(runProps);
    }

    /** How the profile's steps were measured and which were aggregated (the steady window and what it left out). */
    private static Map<String, Object> steps(dlproflint.facts.IterationSummary s) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (s.total() <= 1) return m;
        m.put("total", s.total());
        m.put("aggregatedStart", s.aggStart());
        m.put("aggregatedStop", s.aggStop());
        if (s.binding() != null) m.put("binding", s.binding());
        if (s.window() != null) m.put("window", s.window());
        m.put("leftOut", s.leftOut());
        if (!s.windowNote().isEmpty()) m.put("windowNote", s.windowNote());
        return m;
    }

    /** The job's identity and coverage in the run's properties (the findings carry the rest). */
    private static Map<String, Object> job(dlproflint.facts.JobFacts f) {
        dlproflint.facts.JobInfo j = f.job();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("label", j.label());
        m.put("worldSize", j.worldSize());
        m.put("worldSizeSource", j.worldSizeSource());
        m.put("ranksRead", j.ranksRead());
        m.put("profilesGiven", j.profilesGiven());
        m.put("missingRanks", j.missingRanks());
        m.put("rankSource", j.rankSource());
        m.put("alignedSteps", j.alignedSteps());
        m.put("stepAlignment", j.stepAlignment());
        m.put("medianStepNs", Math.round(j.stepNs().median()));
        m.put("medianExposedCommNs", Math.round(j.exposedCommNs().median()));
        m.put("overlapPct", j.overlapPct());
        List<Map<String, Object>> left = new ArrayList<>();
        for (dlproflint.facts.JobInput in : f.inputs()) {
            if (in.used()) continue;
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("profile", in.profile());
            x.put("status", in.status());
            x.put("note", in.note());
            left.add(x);
        }
        m.put("inputsLeftOut", left);
        m.put("notes", f.notes());
        return m;
    }

    private static Map<String, String> packs(LintRun lint) {
        Map<String, String> m = new TreeMap<>();
        lint.packs().forEach(p -> m.put(p.id(), p.version()));
        return m;
    }

    private Result result(Finding f, int ruleIndex, ProfileFacts facts, SourceLocator locator)
            throws SarifLocationException {
        ProfileInfo profile = facts.profile();
        ArtifactRef where = locator.locate(f, profile.path());
        SarifChain.Parts chain = SarifChain.of(f, facts, locator, where);
        String fingerprint = dlproflint.findings.Fingerprint.of(f);
        PropertyBag props = new PropertyBag()
                .withAdditionalProperty("category", f.category())
                .withAdditionalProperty("pack", f.packId() + "@" + f.packVersion())
                .withAdditionalProperty("subject", f.subject() == null ? "profile" : f.subject().ref())
                .withAdditionalProperty("subjectName", f.subject() == null ? null : f.subject().name())
                .withAdditionalProperty("profile", profile.path())
                .withAdditionalProperty("locationSource", where.source())
                .withAdditionalProperty("evidence", EvidenceValues.normalize(f.evidence()));
        if (f.impact() != null) props.withAdditionalProperty("impact", JsonReporter.impact(f.impact()));
        if (f.location() != null && f.location().file() != null) {
            props.withAdditionalProperty("stackFrame", f.location().toString()
                    + (f.location().function() == null ? "" : " in " + f.location().function()));
        }
        Location primary = new Location().withPhysicalLocation(new PhysicalLocation()
                .withArtifactLocation(new ArtifactLocation().withUri(where.uri()).withUriBaseId(SRCROOT))
                .withRegion(new Region().withStartLine(where.line())));
        if (!chain.logical().isEmpty() && ArtifactRef.STACK.equals(where.source())) primary.withLogicalLocations(chain.logical());
        Result r = new Result()
                .withRuleId(f.ruleId())
                .withRuleIndex(ruleIndex)
                .withLevel(level(f.severity()))
                .withMessage(new Message().withText(messageText(f)))
                .withLocations(List.of(primary))
                .withPartialFingerprints(new PartialFingerprints()
                        .withAdditionalProperty(PRIMARY_HASH_KEY, primaryLocationLineHash(f.ruleId(), fingerprint)))
                .withFingerprints(new Fingerprints().withAdditionalProperty(FINGERPRINT_KEY, fingerprint))
                .withProperties(props);
        // the share of the step (or run) the problem costs: the number findings are ordered and rated by
        if (f.impact() != null) r.setRank((double) f.impact().rank());
        if (!chain.codeFlows().isEmpty()) r.withCodeFlows(chain.codeFlows());
        if (!chain.related().isEmpty()) r.withRelatedLocations(chain.related());
        return r;
    }

    /**
     * CodeQL's {@code hash:occurrence} shape from rule id and the finding fingerprint (never from the
     * location or a measurement): stable across runs, and distinct for findings that share an anchor
     * line, which GitHub would otherwise merge into one alert.
     */
    static String primaryLocationLineHash(String ruleId, String fingerprint) {
        return dlproflint.findings.Fingerprint.sha256Hex(ruleId + "\0" + fingerprint).substring(0, 16) + ":1";
    }

    /**
     * SARIF's message id and arguments (3.11.7, 3.11.11) beside the text: the id of the rule's declared message, which the
     * rule's descriptor carries as a {@code messageStrings} template with positional placeholders, and the formatted
     * values of its placeholders. The text (problem and recommendation) stays, so viewers need neither.
     */
    private static void withMessageId(Message m, Finding f, RuleMetadata rule) {
        if (f.messageId() == null || rule == null) return;
        rule.message(f.messageId()).ifPresent(spec -> {
            try {
                m.withId(spec.id()).withArguments(spec.arguments(f.data()));
            } catch (IllegalArgumentException e) {
                m.withId(spec.id()); // data folded or trimmed elsewhere: the id alone still names the message
            }
        });
    }

    /** Problem, then recommendation: GitHub shows the first sentence where space is short. */
    static String messageText(Finding f) {
        String problem = f.problem() == null ? "" : f.problem().strip();
        String rec = f.recommendation() == null ? "" : f.recommendation().strip();
        if (!problem.isEmpty() && !rec.isEmpty() && !problem.matches("(?s).*[.!?]$")) problem += ".";
        String text = (problem + " " + rec).strip();
        return text.isEmpty() ? "Finding of rule " + f.ruleId() + "." : text;
    }

    static Result.Level level(Severity s) {
        if (s == null) return Result.Level.WARNING;
        return switch (s) {
            case ERROR -> Result.Level.ERROR;
            case WARNING -> Result.Level.WARNING;
            case NOTE -> Result.Level.NOTE;
        };
    }

    /** For the CLI and tests: the category GitHub derives from a run id (everything up to the last '/'). */
    public static String category(String automationId) {
        int slash = automationId.lastIndexOf('/');
        return slash < 0 ? "" : automationId.substring(0, slash);
    }
}
