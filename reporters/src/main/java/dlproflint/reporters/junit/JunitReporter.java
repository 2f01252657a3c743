package dlproflint.reporters.junit;

import dlproflint.findings.Finding;
import dlproflint.findings.FindingOrder;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.Severity;
import dlproflint.findings.Units;
import dlproflint.reporters.ProfileNames;
import dlproflint.reporters.Reporter;
import dlproflint.reporters.ReportException;
import dlproflint.reporters.SafeText;
import dlproflint.reporters.sarif.ArtifactRef;
import dlproflint.reporters.sarif.SarifOptions;
import dlproflint.reporters.sarif.SourceLocator;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JUnit XML, as GitLab ({@code artifacts:reports:junit}) and Jenkins ({@code junit} step) read it: one
 * {@code <testsuite>} per profile (the job, for {@code dlprof-lint job}), one {@code <testcase>} per rule that ran,
 * named by the rule id with its pack as class name, and one {@code <failure>} per finding at or above
 * {@code --fail-on} (its problem as message, its message id as type; severity, cost, recommendation, place and help
 * link in the body). Findings
 * below it are listed in the test case's {@code <system-out>}, so the test passes and the finding is still there
 * to read. Counts on the suites add up; times are 0 (rules are not timed one by one).
 */
public final class JunitReporter implements Reporter {
    public static final String FORMAT = "junit";

    private final Severity failOn;
    private final SarifOptions locations;

    /**
     * @param failOn    the lowest severity that fails a test, or null when no finding fails one ({@code --fail-on none})
     * @param locations repository root and anchor, as for SARIF, or null; a place is added to a failure where known
     */
    public JunitReporter(Severity failOn, SarifOptions locations) {
        this.failOn = failOn;
        this.locations = locations;
    }

    @Override
    public void render(LintRun run, OutputStream out) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try {
            write(run, buf);
        } catch (XMLStreamException e) {
            throw new ReportException("JUnit report: " + e.getMessage());
        }
        buf.writeTo(out);
        out.flush();
    }

    private void write(LintRun run, OutputStream to) throws XMLStreamException, IOException {
        SourceLocator locator = SourceLocator.optional(locations, "the JUnit report");
        List<String> stems = ProfileNames.stems(run.results());
        List<Suite> suites = new ArrayList<>();
        for (int i = 0; i < run.results().size(); i++) suites.add(suite(run, run.results().get(i), stems.get(i)));
        int tests = 0;
        int failures = 0;
        for (Suite s : suites) {
            tests += s.cases().size();
            failures += s.failures();
        }
        XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(to, "UTF-8");
        x.writeStartDocument("UTF-8", "1.0");
        x.writeCharacters("\n");
        x.writeStartElement("testsuites");
        x.writeAttribute("name", "dlprof-lint");
        x.writeAttribute("tests", Integer.toString(tests));
        x.writeAttribute("failures", Integer.toString(failures));
        x.writeAttribute("errors", "0");
        x.writeAttribute("time", "0");
        for (Suite s : suites) writeSuite(x, s, locator);
        x.writeCharacters("\n");
        x.writeEndElement();
        x.writeCharacters("\n");
        x.writeEndDocument();
        x.flush();
        x.close();
    }

    /** A profile's test cases: every rule that ran, with the findings it made. */
    record Suite(String name, String profile, List<Case> cases, int failures) {
    }

    record Case(String rule, String pack, List<Finding> failed, List<Finding> passed) {
    }

    private Suite suite(LintRun run, ProfileResult r, String stem) {
        Map<String, Case> byRule = new TreeMap<>();
        for (RuleMetadata m : run.rules()) byRule.putIfAbsent(m.id(), new Case(m.id(), m.packId(), new ArrayList<>(), new ArrayList<>()));
        int failures = 0;
        for (Finding f : FindingOrder.sorted(r.findings())) {
            Case c = byRule.computeIfAbsent(f.ruleId(), id -> new Case(id, f.packId(), new ArrayList<>(), new ArrayList<>()));
            if (fails(f)) {
                c.failed().add(f);
                failures++;
            } else {
                c.passed().add(f);
            }
        }
        return new Suite(stem, r.facts().profile().path(), new ArrayList<>(byRule.values()), failures);
    }

    private boolean fails(Finding f) {
        return failOn != null && f.severity() != null && f.severity().atLeast(failOn);
    }

    private void writeSuite(XMLStreamWriter x, Suite s, SourceLocator locator) throws XMLStreamException {
        x.writeCharacters("\n  ");
        x.writeStartElement("testsuite");
        x.writeAttribute("name", clean(s.name()));
        x.writeAttribute("tests", Integer.toString(s.cases().size()));
        x.writeAttribute("failures", Integer.toString(s.failures()));
        x.writeAttribute("errors", "0");
        x.writeAttribute("skipped", "0");
        x.writeAttribute("time", "0");
        x.writeCharacters("\n    ");
        x.writeStartElement("properties");
        Map<String, String> props = new LinkedHashMap<>();
        props.put("profile", s.profile());
        props.put("fail-on", failOn == null ? "none" : failOn.label());
        for (Map.Entry<String, String> e : props.entrySet()) {
            x.writeCharacters("\n      ");
            x.writeEmptyElement("property");
            x.writeAttribute("name", e.getKey());
            x.writeAttribute("value", clean(e.getValue() == null ? "" : e.getValue()));
        }
        x.writeCharacters("\n    ");
        x.writeEndElement();
        for (Case c : s.cases()) {
            x.writeCharacters("\n    ");
            boolean empty = c.failed().isEmpty() && c.passed().isEmpty();
            if (empty) x.writeEmptyElement("testcase");
            else x.writeStartElement("testcase");
            x.writeAttribute("classname", "dlprof-lint." + (c.pack() == null ? "rules" : clean(c.pack())));
            x.writeAttribute("name", clean(c.rule()));
            x.writeAttribute("time", "0");
            if (empty) continue;
            for (Finding f : c.failed()) {
                x.writeCharacters("\n      ");
                x.writeStartElement("failure");
                x.writeAttribute("message", clean(f.problem() == null ? f.ruleId() : f.problem()));
                // the kind of failure: which of the rule's declared messages it is (the severity opens the body)
                if (f.messageId() != null) x.writeAttribute("type", clean(f.messageId()));
                x.writeCharacters(clean("Severity: " + f.severity().label() + "\n" + body(f, locator, s.profile())));
                x.writeEndElement();
            }
            if (!c.passed().isEmpty()) {
                x.writeCharacters("\n      ");
                x.writeStartElement("system-out");
                StringBuilder b = new StringBuilder();
                for (Finding f : c.passed()) {
                    b.append('[').append(f.severity() == null ? "note" : f.severity().label()).append(", below --fail-on] ")
                            .append(body(f, locator, s.profile())).append("\n\n");
                }
                x.writeCharacters(clean(b.toString().strip()));
                x.writeEndElement();
            }
            x.writeCharacters("\n    ");
            x.writeEndElement();
        }
        x.writeCharacters("\n  ");
        x.writeEndElement();
    }

    /** A finding as text: problem, cost, next step, where, help. */
    private static String body(Finding f, SourceLocator locator, String profile) {
        StringBuilder b = new StringBuilder(f.problem() == null ? f.ruleId() : f.problem());
        String impact = Units.impact(f.impact());
        if (impact != null) b.append("\nCost: ").append(impact);
        if (f.recommendation() != null && !f.recommendation().isBlank()) b.append("\nNext step: ").append(f.recommendation());
        if (f.subject() != null) b.append("\nSubject: ").append(f.subject().ref());
        ArtifactRef where = locator == null ? null : locator.locateIfPossible(f, profile);
        if (where != null) b.append("\nWhere: ").append(SourceLocator.plainPath(where.uri())).append(':').append(where.line());
        if (f.helpUri() != null) b.append("\nHelp: ").append(f.helpUri());
        return b.toString();
    }

    /**
     * Profile text as XML 1.0 can hold it: control characters (not allowed in XML 1.0) and bidi overrides become
     * visible escapes; the writer escapes markup.
     */
    private static String clean(String s) {
        return SafeText.escape(s, SafeText.KEEP_TAB_NEWLINE);
    }
}
