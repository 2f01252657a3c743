package dlproflint.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dlproflint.extract.InputFiles;
import dlproflint.findings.Finding;
import dlproflint.reporters.io.AtomicFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Known findings that CI should not fail on: {@code (ruleId, fingerprint)} pairs. The fingerprint is
 * the engine's stable one (rule id + subject, no measurements), so a baseline survives re-profiling.
 * The subject is stored only to make the file readable in review.
 */
public record Baseline(String tool, int schemaVersion, List<Entry> findings) {
    public static final int SCHEMA_VERSION = 1;
    private static final ObjectMapper JSON = dlproflint.reporters.SafeJson.mapper().enable(SerializationFeature.INDENT_OUTPUT).build();

    public record Entry(String ruleId, String fingerprint, String subject) {
    }

    public Baseline {
        findings = findings == null ? null : List.copyOf(findings);
    }

    public static Baseline of(String toolVersion, List<Finding> found) {
        Set<Entry> entries = new LinkedHashSet<>();
        for (Finding f : found) {
            entries.add(new Entry(f.ruleId(), f.fingerprint(), f.subject() == null ? "" : f.subject().ref()));
        }
        // Sorted so that re-writing an unchanged baseline gives an identical file (clean diffs).
        return new Baseline("dlprof-lint " + toolVersion, SCHEMA_VERSION, entries.stream()
                .sorted(Comparator.comparing(Entry::ruleId).thenComparing(Entry::subject).thenComparing(Entry::fingerprint))
                .toList());
    }

    public boolean contains(Finding f) {
        for (Entry e : findings) {
            if (e.ruleId().equals(f.ruleId()) && e.fingerprint().equals(f.fingerprint())) return true;
        }
        return false;
    }

    /** Entries that match none of {@code seen}: fixed problems, so the baseline can shrink. */
    public List<Entry> stale(List<Finding> seen) {
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (Finding f : seen) keys.add(f.ruleId() + "\u0000" + f.fingerprint());
        return findings.stream().filter(e -> !keys.contains(e.ruleId() + "\u0000" + e.fingerprint())).toList();
    }

    public static Baseline read(Path file) throws CliException {
        String problem = InputFiles.problem(file, "baseline file");
        if (problem != null) {
            throw CliException.usage(file + ": " + (problem.equals("no such file") ? "baseline file not found" : problem));
        }
        try {
            Baseline b = JSON.readValue(file.toFile(), Baseline.class);
            if (b == null || b.findings() == null) throw CliException.usage(file + ": not a dlprof-lint baseline (no 'findings')");
            if (b.schemaVersion() > SCHEMA_VERSION || b.schemaVersion() < 0) { // 0: absent, a hand-written file
                // A newer format may change what an entry means: matching it as version 1 could hide new findings.
                throw CliException.usage(file + ": baseline schemaVersion " + b.schemaVersion() + " is not supported (this dlprof-lint reads "
                        + SCHEMA_VERSION + "); re-record it with 'dlprof-lint baseline' or upgrade dlprof-lint");
            }
            for (Entry e : b.findings()) {
                if (e.ruleId() == null || e.fingerprint() == null) {
                    throw CliException.usage(file + ": baseline entry without ruleId or fingerprint");
                }
            }
            return b;
        } catch (JsonProcessingException e) {
            throw CliException.usage(file + ": not a dlprof-lint baseline: " + e.getOriginalMessage().lines().findFirst().orElse(""));
        } catch (IOException e) {
            throw CliException.usage(file + ": cannot read baseline: " + e.getMessage());
        }
    }

    public void write(Path file) throws IOException {
        AtomicFiles.write(file, this::write);
    }

    /** The file's content, to a stream the caller keeps open (standard output). */
    public void write(java.io.OutputStream out) throws IOException {
        JSON.writeValue(new NonClosingStream(out), this);
        out.write('\n');
    }

    /** Jackson closes the stream it writes to; the atomic writer owns it. */
    private static final class NonClosingStream extends java.io.FilterOutputStream {
        NonClosingStream(java.io.OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
