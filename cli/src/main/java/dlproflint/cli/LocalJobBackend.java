package dlproflint.cli;

import dlproflint.job.JobRoster;

import java.util.List;
import java.util.function.Supplier;

/** Reads a job's ranks on this machine, {@code --jobs} at a time (default: up to 4, never more than the cores). */
final class LocalJobBackend implements JobBackend {
    private final CliEnv env;
    private final Progress progress;
    private int parallelism = 1;

    LocalJobBackend(CliEnv env) {
        this.env = env;
        this.progress = new Progress(env);
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public List<String> expand(CliEnv env, List<String> inputs) throws CliException {
        return JobInputs.expand(env, inputs);
    }

    @Override
    public List<JobRoster.Read> readAll(List<String> profiles, Supplier<RankSpec> spec, RankReader local, int jobs)
            throws InterruptedException {
        int n = profiles.size();
        parallelism = Math.max(1, Math.min(n, jobs > 0 ? jobs : ProfileLinter.defaultJobs(n)));
        return ProfileLinter.inParallel(parallelism, n, i -> {
            long t0 = System.nanoTime();
            progress.started(profiles.get(i), i, n);
            JobRoster.Read r = local.read(profiles.get(i), env.resolve(profiles.get(i)));
            progress.finished(profiles.get(i), System.nanoTime() - t0, r.summary() == null ? 0 : r.summary().findings().size());
            return r;
        });
    }

    @Override
    public int parallelism() {
        return parallelism;
    }
}
