package dlproflint.extract.kineto;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dlproflint.extract.FileSniff;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ReadOptions;
import dlproflint.extract.ReadProgress;
import dlproflint.facts.InstanceSink;
import dlproflint.facts.ProfileFacts;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.zip.ZipException;

/** Reads PyTorch profiler (Kineto) Chrome traces, plain or gzip-compressed. */
public final class KinetoTraceReader implements ProfileReader {
    @Override
    public String format() {
        return "kineto";
    }

    @Override
    public boolean accepts(Path file, FileSniff sniff) throws ProfileException {
        if (sniff.looksLikeJson()) return true;
        if (!sniff.isGzip()) return false;
        try (InputStream in = TraceInput.open(file)) {
            byte[] head = in.readNBytes(512);
            return new FileSniff(head, head.length).looksLikeJson();
        } catch (IOException e) {
            // a gzip we cannot even start to read: claim it so the user gets the gzip error
            return true;
        }
    }

    @Override
    public ProfileFacts read(Path file, ReadOptions options) throws ProfileException {
        return read(file, options, ReadProgress.NONE);
    }

    /** Top-level fields looked at before a JSON object is taken for a trace without seeing {@code traceEvents}. */
    private static final int CONFIRM_FIELDS = 64;

    /**
     * A trace is an array of event objects, or an object with {@code traceEvents} (PyTorch writes it after
     * {@code schemaVersion}, {@code deviceProperties} and a few more). Other JSON (a {@code labels.json}, a
     * {@code package.json}) is not one. Looks at up to {@value #CONFIRM_FIELDS} top-level fields, skipping their values
     * unread; a document that keeps going past them is left to the full read.
     */
    @Override
    public void confirm(Path file) throws ProfileException {
        try (InputStream in = TraceInput.open(file);
             com.fasterxml.jackson.core.JsonParser p = new TraceParser().factory().createParser(in)) {
            com.fasterxml.jackson.core.JsonToken t = p.nextToken();
            if (t == com.fasterxml.jackson.core.JsonToken.START_ARRAY) {
                t = p.nextToken();
                if (t != com.fasterxml.jackson.core.JsonToken.START_OBJECT && t != com.fasterxml.jackson.core.JsonToken.END_ARRAY) {
                    throw new ProfileException(file, "a JSON array whose first element is not an event object: not a PyTorch "
                            + "profiler trace");
                }
                return;
            }
            if (t != com.fasterxml.jackson.core.JsonToken.START_OBJECT) return; // the full read names the problem
            for (int i = 0; i < CONFIRM_FIELDS && p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME; i++) {
                if ("traceEvents".equals(p.currentName())) return;
                p.nextToken();
                p.skipChildren();
            }
            if (p.currentToken() == com.fasterxml.jackson.core.JsonToken.END_OBJECT) {
                throw new ProfileException(file, "a JSON object without 'traceEvents': not a PyTorch profiler trace");
            }
        } catch (IOException e) {
            // unreadable or broken JSON: the full read says what is wrong with it
        }
    }

    /** Progress is the share of the file's bytes read (compressed bytes of a gzip trace). */
    @Override
    public ProfileFacts read(Path file, ReadOptions options, ReadProgress progress) throws ProfileException {
        dlproflint.extract.common.PhaseTimer timer = new dlproflint.extract.common.PhaseTimer("kineto-reader");
        KinetoAggregator agg = parse(file, options, progress);
        timer.lap("parse");
        ProfileFacts facts = new KinetoFactsBuilder(agg, file).build();
        timer.lap("facts");
        return facts;
    }

    /**
     * Parses the trace again and streams its GPU work in the iteration windows the facts use; the launches
     * live in the aggregator's primitive columns, as for {@link #read}.
     */
    @Override
    public void streamInstances(Path file, ReadOptions options, InstanceSink sink) throws ProfileException {
        KinetoAggregator agg = parse(file, options == null ? ReadOptions.DEFAULT : options, ReadProgress.NONE);
        KinetoFactsBuilder facts = new KinetoFactsBuilder(agg, file);
        facts.build();
        new KinetoInstances(agg, facts).stream(sink);
    }

    /** {@link #read} with the parser to try first (made for the trace's limits), or null to parse serially. */
    ProfileFacts readWith(Path file, ReadOptions options, java.util.function.Function<TraceLimits, ParallelTraceParser> parallel)
            throws ProfileException {
        return new KinetoFactsBuilder(parse(file, options, ReadProgress.NONE, parallel == null ? limits -> null : parallel),
                file).build();
    }

    private static ParallelTraceParser defaultParallel(Path file, TraceLimits limits) {
        return parallel(file) ? new ParallelTraceParser(Runtime.getRuntime().availableProcessors(), limits) : null;
    }

    private KinetoAggregator parse(Path file, ReadOptions options, ReadProgress progress) throws ProfileException {
        return parse(file, options, progress, limits -> defaultParallel(file, limits));
    }

    private KinetoAggregator parse(Path file, ReadOptions options, ReadProgress progress,
                                   java.util.function.Function<TraceLimits, ParallelTraceParser> parallelFor)
            throws ProfileException {
        TraceLimits limits = new TraceLimits(fileSize(file));
        ParallelTraceParser parallel = parallelFor.apply(limits);
        if (parallel != null) {
            KinetoAggregator agg = new KinetoAggregator(options, limits);
            try {
                parallel.parse(file, agg, progress);
                return agg;
            } catch (TraceLimits.TraceLimitException e) {
                throw new ProfileException(file, e.getMessage());
            } catch (ParallelTraceParser.Fallback e) {
                // parsed serially below, which also names any error exactly
            }
        }
        KinetoAggregator agg = new KinetoAggregator(options, limits);
        parseSerially(file, limits, progress, agg);
        return agg;
    }

    /**
     * The HTML views' second read: the window's spans, the memory curves and the module times
     * ({@link KinetoDetail}).
     */
    @Override
    public dlproflint.detail.ProfileDetail detail(Path file, ReadOptions options, ProfileFacts facts) throws ProfileException {
        KinetoDetail detail = new KinetoDetail(dlproflint.extract.common.DetailWindow.of(facts));
        parseSerially(file, new TraceLimits(fileSize(file)), ReadProgress.NONE, detail);
        String producer = facts.profile().profilerVersion();
        return detail.build(facts, producer != null && producer.contains("legacy"));
    }

    /** One streaming parse into {@code handler}; every failure is one line naming the file. */
    private static void parseSerially(Path file, TraceLimits limits, ReadProgress progress, TraceHandler handler)
            throws ProfileException {
        try (InputStream in = TraceInput.open(file, progress)) {
            new TraceParser(limits).parse(in, handler);
        } catch (TraceLimits.TraceLimitException e) {
            throw new ProfileException(file, e.getMessage());
        } catch (TraceFormatException e) {
            throw new ProfileException(file, e.getMessage());
        } catch (TraceInput.ExpansionLimitException e) {
            throw new ProfileException(file, e.getMessage());
        } catch (StreamConstraintsException e) {
            throw new ProfileException(file, "invalid trace: " + jsonProblem(e.getOriginalMessage()));
        } catch (JsonProcessingException e) {
            throw new ProfileException(file, "invalid JSON at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ": " + jsonProblem(e.getOriginalMessage()));
        } catch (EOFException | ZipException e) {
            throw new ProfileException(file, "truncated or corrupt gzip data: " + firstLine(e.getMessage()));
        } catch (IOException e) {
            throw new ProfileException(file, "cannot read trace: " + firstLine(e.getMessage()));
        }
    }

    /**
     * The parser's complaint in the user's terms: Jackson names its own settings ("enable
     * JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS to allow"), which mean nothing to someone linting a trace; its
     * source-location notes ({@code [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 2,
     * column: 3]}) become "opened at line 2, column 3", and an end of input says that the file ends early, which is
     * what a cut download or a killed export leaves.
     */
    static String jsonProblem(String message) {
        String m = firstLine(message);
        m = m.replaceAll("\\(start marker at \\[Source: [^\\]]*?line: (\\d+), column: (\\d+)\\]\\)", "(opened at line $1, column $2)");
        m = m.replaceAll(" ?\\[Source: [^\\]]*\\]", "");
        if (m.startsWith("Unexpected end-of-input")) {
            String rest = m.substring("Unexpected end-of-input".length()).replaceFirst("^[:,]?\\s*", "");
            m = "the file ends early (truncated?)" + (rest.isEmpty() ? "" : ": " + rest);
        }
        java.util.regex.Matcher nonNumeric = java.util.regex.Pattern.compile("Non-standard token '([^']*)'").matcher(m);
        if (nonNumeric.find()) {
            return nonNumeric.group(1) + " is not a JSON number (JSON has no NaN or Infinity; Python's json.dump writes them"
                    + " unless allow_nan=False): the trace was written or edited by a tool that does not write strict JSON";
        }
        return m.replaceAll("\\s*:?\\s*(enable|set) `?[A-Za-z]+(Feature|Constraints)\\.[A-Z_]+`?.*$", "");
    }

    /** A large plain-JSON trace on a machine with more than one core. */
    private static boolean parallel(Path file) {
        if (Runtime.getRuntime().availableProcessors() < 2) return false;
        try (InputStream in = java.nio.file.Files.newInputStream(file)) {
            byte[] magic = in.readNBytes(2);
            boolean gzip = magic.length == 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b;
            return !gzip && java.nio.file.Files.size(file) >= ParallelTraceParser.MIN_FILE_BYTES;
        } catch (IOException e) {
            return false;
        }
    }

    private static long fileSize(Path file) throws ProfileException {
        try {
            return java.nio.file.Files.size(file);
        } catch (IOException e) {
            throw new ProfileException(file, "cannot read trace: " + firstLine(e.getMessage()));
        }
    }

    private static String firstLine(String s) {
        if (s == null) return "unknown error";
        int nl = s.indexOf('\n');
        return nl >= 0 ? s.substring(0, nl) : s;
    }
}
