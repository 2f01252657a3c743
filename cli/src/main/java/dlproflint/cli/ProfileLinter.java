package dlproflint.cli;

import dlproflint.findings.Finding;
import dlproflint.findings.ProfileResult;
import dlproflint.extract.ProfileException;
import dlproflint.facts.ProfileFacts;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Extracts and lints several profiles (e.g. one per rank) on a bounded pool and returns their outcomes
 * in the order given, whatever order they finish in. The pool is small on purpose: each extraction holds
 * one profile's aggregates in memory.
 */
final class ProfileLinter {
    /** A profile's result, or why it could not be read. */
    record Outcome(String given, ProfileResult result, ProfileException error) {
    }

    private final ProfileRead read;
    private final FindingFilter filter;
    private final Progress progress;
    private final int jobs;
    /** whether each result also carries what the HTML report's views draw ({@link ProfileRead#detail}) */
    private final boolean details;

    ProfileLinter(ProfileRead read, FindingFilter filter, Progress progress, int jobs, boolean details) {
        this.read = read;
        this.filter = filter;
        this.progress = progress;
        this.jobs = jobs;
        this.details = details;
    }

    static int defaultJobs(int profiles) {
        return Math.max(1, Math.min(profiles, Math.min(4, Runtime.getRuntime().availableProcessors())));
    }

    List<Outcome> lintAll(List<ProfileInputs.Input> inputs) throws InterruptedException {
        return parallel(inputs, (input, i, n) -> lintOne(input, i, n, true));
    }

    /** Reads every profile, joins their facts, then lints what the joiner made of them. */
    List<Outcome> lintJoined(List<ProfileInputs.Input> inputs, ProfilePlan.Joiner joiner) throws InterruptedException {
        List<Outcome> readOnly = parallel(inputs, (input, i, n) -> lintOne(input, i, n, false));
        if (readOnly.stream().anyMatch(o -> o.error() != null)) return readOnly;
        List<Outcome> out = new ArrayList<>();
        for (ProfileFacts facts : joiner.join(readOnly.stream().map(o -> o.result().facts()).toList())) {
            out.add(new Outcome(facts.profile().path(), filter.apply(facts, read.lint(facts)), null));
        }
        return out;
    }

    @FunctionalInterface
    private interface Task {
        Outcome run(ProfileInputs.Input input, int index, int total);
    }

    private List<Outcome> parallel(List<ProfileInputs.Input> inputs, Task task) throws InterruptedException {
        prepareRules();
        int n = inputs.size();
        return inParallel(jobs, n, i -> task.run(inputs.get(i), i, n));
    }

    /**
     * Runs {@code task(0..n-1)} on a pool of at most {@code jobs} daemon threads and returns the results in index
     * order, whatever order they finish in; a task's unchecked exception is rethrown as is.
     */
    static <T> List<T> inParallel(int jobs, int n, java.util.function.IntFunction<T> task) throws InterruptedException {
        AtomicInteger threadNo = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(jobs, n)), r -> {
            Thread t = new Thread(r, "dlprof-lint-" + threadNo.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int idx = i;
                futures.add(pool.submit(() -> task.apply(idx)));
            }
            List<T> out = new ArrayList<>(n);
            for (Future<T> f : futures) {
                try {
                    out.add(f.get());
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof RuntimeException re) throw re;
                    if (c instanceof Error err) throw err;
                    throw new IllegalStateException(c);
                }
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Loads the rule packs' KieBases on a thread of their own while the first profiles are read (reading
     * needs none of it, and it costs about a second of CPU). A failure here is left to the first lint,
     * which loads them again and reports it.
     */
    private void prepareRules() {
        if (read.engine() == null) return;
        Thread t = new Thread(() -> {
            try {
                read.engine().prepare();
            } catch (RuntimeException | Error e) { // NOPMD: out of memory included; the lint that needs the pack reports it
                // reported by the lint that needs the pack
            }
        }, "dlprof-lint-rules");
        t.setDaemon(true);
        t.start();
    }

    /** @param lint false: read only (the result holds the facts and no finding) */
    private Outcome lintOne(ProfileInputs.Input input, int index, int total, boolean lint) {
        String given = input.name();
        long t0 = System.nanoTime();
        progress.started(given, index, total);
        try {
            ProfileFacts facts;
            try {
                facts = read.facts(input, progress.of(given));
            } catch (OutOfMemoryError e) {
                // the profile needs more than the heap allows: a resource limit to raise, not a bug (exit 3, not 70)
                return new Outcome(given, null, new ProfileException(input.path(), Main.outOfMemory("reading it")));
            }
            List<Finding> raw = lint ? read.lint(facts) : List.of();
            ProfileResult result = filter.apply(facts, raw);
            if (details) result = result.withDetail(read.detail(input, facts));
            progress.finished(given, System.nanoTime() - t0, result.findings().size());
            return new Outcome(given, result, null);
        } catch (ProfileException e) {
            return new Outcome(given, null, e);
        }
    }
}
