package dlproflint.cli;

import dlproflint.detail.ProfileDetail;
import dlproflint.cli.source.CallLines;
import dlproflint.engine.LintEngine;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.extract.ReadProgress;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.Finding;

import java.nio.file.Path;
import java.util.List;

/**
 * The one place a profile is read and linted: the same reader discovery, read options and engine for a profile of
 * {@code lint}, the two of {@code compare} and each rank of {@code job} (on this machine or a Spark executor).
 * Findings here are unfiltered: suppressions and the baseline apply to a whole run ({@link FindingFilter}).
 *
 * @param engine     null when only the facts are wanted (no rule pack loaded)
 * @param sourceRoot the run's repository root, where the user's Python source is looked up; null for none
 * @param sources    the source files read so far, shared by every profile or rank this read places findings for
 */
record ProfileRead(ProfileReaders readers, LintEngine engine, ReadOptions options, Path sourceRoot,
                   CallLines.Sources sources) {
    /** Source files read once for every finding this read places ({@link CallLines.Sources}). */
    ProfileRead(ProfileReaders readers, LintEngine engine, ReadOptions options, Path sourceRoot) {
        this(readers, engine, options, sourceRoot, new CallLines.Sources());
    }

    /** Without a source root: findings stay where the profile puts them (a job's ranks, read anywhere). */
    ProfileRead(ProfileReaders readers, LintEngine engine, ReadOptions options) {
        this(readers, engine, options, null);
    }

    /** The profile's facts; a profile read from standard input is named {@code -} in them. */
    ProfileFacts facts(ProfileInputs.Input input, ReadProgress progress) throws ProfileException {
        ProfileFacts facts = facts(input.path(), progress);
        return input.stdin() ? facts.withProfile(facts.profile().withPath(ProfileInputs.STDIN_NAME)) : facts;
    }

    ProfileFacts facts(Path file, ReadProgress progress) throws ProfileException {
        return progress == null ? readers.read(file, options) : readers.read(file, options, progress);
    }

    /**
     * What the HTML report's Timeline, Memory and Module views draw: a second read of the profile, made only when an
     * HTML report is written. A failure here leaves the views empty, saying why, rather than failing the lint.
     */
    ProfileDetail detail(ProfileInputs.Input input, ProfileFacts facts) {
        try {
            return readers.readerFor(input.path()).detail(input.path(), options, facts);
        } catch (ProfileException e) {
            String why = "The timeline, memory and module data could not be read: " + e.getMessage();
            return new ProfileDetail(null, null, List.of(), why, why);
        }
    }

    /**
     * The rules' findings on these facts, none without an engine; a finding the trace places only at a function's first
     * line is moved to the call in the user's source when {@code sourceRoot} holds it ({@link CallLines}).
     */
    List<Finding> lint(ProfileFacts facts) {
        return engine == null ? List.of() : callLines(engine.lint(facts));
    }

    /** Findings with each function-start location moved to its call in the user's source, where it is at hand. */
    List<Finding> callLines(List<Finding> findings) {
        return engine == null ? findings : CallLines.refine(findings, sourceRoot, engine::rule, sources);
    }

    /**
     * The same reading and linting without the source lookup: for a job's ranks, whose findings the driver places
     * once for every backend ({@link JobPlan}), since a cluster's executors do not have the user's repository.
     */
    ProfileRead withoutSource() {
        return new ProfileRead(readers, engine, options, null);
    }
}
