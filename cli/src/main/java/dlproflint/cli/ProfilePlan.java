package dlproflint.cli;

import dlproflint.facts.ProfileFacts;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;

import java.util.ArrayList;
import java.util.List;

/**
 * The plan of the commands over profiles ({@code lint}, {@code report}, {@code baseline}, {@code compare}): the profiles
 * are read in parallel ({@link ProfileLinter}) and each is linted, or, with a {@link Joiner}, all are read first and the
 * joiner makes the facts that are linted ({@code compare}: the head with its comparison to the base).
 */
final class ProfilePlan implements LintPlan {
    /** Joins the facts of every profile read (in the order given) into the facts that are linted. */
    @FunctionalInterface
    interface Joiner {
        List<ProfileFacts> join(List<ProfileFacts> read);
    }

    private final ProfileInputs inputs;
    private final Joiner joiner;
    private List<ProfileInputs.Input> opened = List.of();
    private boolean details;

    ProfilePlan(ProfileInputs inputs) {
        this(inputs, null);
    }

    ProfilePlan(ProfileInputs inputs, Joiner joiner) {
        this.inputs = inputs;
        this.joiner = joiner;
    }

    /** Each result also carries what the HTML report's views draw (wanted only when an HTML report is written). */
    ProfilePlan withDetails(boolean on) {
        details = on;
        return this;
    }

    @Override
    public LintRun run(LintSession session, Baseline baseline, int jobs) throws Exception {
        FindingFilter filter = session.filter(baseline);
        ProfileRead read = session.profileRead();
        opened = inputs.open(read.readers());
        ProfileLinter linter = new ProfileLinter(read, filter, new Progress(session.env),
                jobs > 0 ? jobs : ProfileLinter.defaultJobs(opened.size()), details);
        List<ProfileLinter.Outcome> outcomes = joiner == null ? linter.lintAll(opened) : linter.lintJoined(opened, joiner);
        boolean failed = false;
        List<ProfileResult> results = new ArrayList<>();
        for (ProfileLinter.Outcome o : outcomes) {
            if (o.error() != null) {
                failed = true;
                session.unreadable(o.given(), o.error().getMessage());
            } else {
                results.add(o.result());
            }
        }
        if (failed) return null;
        return session.engine() == null ? new LintRun(ToolVersion.get(), List.of(), List.of(), results)
                : new LintRun(ToolVersion.get(), session.engine().packs(), session.engine().rules(), results);
    }

    /** The profiles the run read (standard input spooled, folders expanded), in report order. */
    List<ProfileInputs.Input> opened() {
        return opened;
    }
}
