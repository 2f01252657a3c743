package dlproflint.cli;

import dlproflint.engine.LintEngine;
import dlproflint.engine.RuleLoadException;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.OneLine;
import dlproflint.io.ScratchFiles;
import dlproflint.job.JobRoster;
import dlproflint.job.RankSummaries;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads and lints one rank of a job and keeps only its summary: the profile's facts are linted by the
 * profile-scope packs and dropped as soon as the summary is made, so a job holds ranks × steps, never a
 * rank's events. The same code runs on the driver's threads ({@code dlprof-lint job}) and on Spark executors.
 */
public final class RankReader {
    private static final Map<String, RankReader> BY_SPEC = new ConcurrentHashMap<>();
    private static final String PACKS_PREFIX = "dlprof-lint-packs-";

    private final ProfileRead read;

    RankReader(ProfileRead read) {
        this.read = read;
    }

    /**
     * The reader for a spec built elsewhere, made once per JVM (an executor reads many ranks with one engine).
     * Site packs are unpacked into a scratch folder of this machine, removed when the JVM ends (an executor's
     * SIGTERM included) or, after a SIGKILL, by the next reader made in the same temporary folder.
     */
    public static RankReader of(RankSpec spec) {
        RankSpec s = spec;
        return BY_SPEC.computeIfAbsent(spec.digest(), key -> {
            try {
                Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
                ScratchFiles.cleanStale(tmp, PACKS_PREFIX);
                Path root = ScratchFiles.createDirectory(tmp, PACKS_PREFIX);
                List<Path> dirs = s.unpackPacks(root);
                LintEngine engine = RuleOptions.load(dirs, s.rules()).withConfig(s.rules());
                return new RankReader(new ProfileRead(ProfileReaders.discover(), engine, s.readOptions()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (RuleLoadException e) {
                throw new IllegalStateException("rule packs do not load on this machine: " + e.getMessage(), e);
            }
        });
    }

    /**
     * @param given the profile as the user named it (reports and messages use it)
     * @param file  where to read it (a local copy on an executor)
     */
    public JobRoster.Read read(String given, Path file) {
        try {
            ProfileFacts facts = read.facts(file, null);
            return JobRoster.Read.ok(given, RankSummaries.of(given, facts, read.lint(facts)));
        } catch (ProfileException e) {
            return JobRoster.Read.failed(given, OneLine.of(e));
        }
    }
}
