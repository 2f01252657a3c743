package dlproflint.extract.kineto;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;

/**
 * Streams a Kineto trace with Jackson's token API: accepts a bare event array (2021) or an object
 * with {@code traceEvents} and metadata in any key order. Only the fields the aggregation needs are
 * decoded; everything else (e.g. huge user metadata) is skipped without building trees.
 */
final class TraceParser {
    /** Deeper nesting than this is not a trace; Jackson enforces it while reading. */
    static final int MAX_NESTING = 200;
    private static final int MAX_SHAPE_TEXT = 2000;
    /** Longest single string value (a kernel name or a call stack is a few KB; Jackson buffers a value whole). */
    static final int MAX_STRING_CHARS = 16 * 1024 * 1024;

    private final JsonFactory factory;
    private final TraceLimits limits;

    TraceParser() {
        this(TraceLimits.unbounded());
    }

    TraceParser(TraceLimits limits) {
        this(limits, MAX_NESTING);
    }

    /** @param maxNesting nesting limit (one less for a parser that starts inside the event array) */
    TraceParser(TraceLimits limits, int maxNesting) {
        this.limits = limits;
        factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(maxNesting)
                        .maxStringLength(MAX_STRING_CHARS)
                        .maxNumberLength(400)
                        .build())
                .build();
    }

    JsonFactory factory() {
        return factory;
    }

    /** @return number of events read */
    long parse(InputStream in, TraceHandler handler) throws IOException, TraceFormatException {
        TraceEvent ev = new TraceEvent();
        long count = 0;
        try (JsonParser p = factory.createParser(in)) {
            JsonToken first = p.nextToken();
            if (first == JsonToken.START_ARRAY) {
                count = readEvents(p, ev, handler);
            } else if (first == JsonToken.START_OBJECT) {
                boolean sawEvents = false;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    JsonToken t = p.nextToken();
                    if (key.equals("traceEvents")) {
                        if (t != JsonToken.START_ARRAY) throw new TraceFormatException("'traceEvents' is not an array");
                        count = readEvents(p, ev, handler);
                        sawEvents = true;
                    } else {
                        topLevel(p, key, t, handler);
                    }
                }
                if (!sawEvents) throw new TraceFormatException("a JSON object without 'traceEvents': not a PyTorch profiler trace");
            } else {
                throw new TraceFormatException("not a JSON object or array");
            }
            if (p.nextToken() != null) throw new TraceFormatException("unexpected content after the JSON document");
        }
        return count;
    }

    /** A top-level field other than {@code traceEvents}, its first token {@code t} read. */
    void topLevel(JsonParser p, String key, JsonToken t, TraceHandler handler) throws IOException {
        switch (key) {
            case "deviceProperties", "computeProperties" -> handler.deviceProperties(BoundedJson.array(p, handler));
            case "distributedInfo" -> handler.distributedInfo(BoundedJson.object(p));
            case "baseTimeNanoseconds" -> {
                if (t.isNumeric() || t == JsonToken.VALUE_STRING) handler.baseTimeNanoseconds(parseId(p.getText()));
                else p.skipChildren();
            }
            default -> {
                if (t.isScalarValue()) handler.topLevel(key, p.getText());
                else p.skipChildren();
            }
        }
    }

    /** Refuses the event past the trace's limit ({@code n} counts from 1). */
    void countEvent(long n) {
        if (n > limits.maxEvents) throw limits.tooManyEvents();
    }

    private long readEvents(JsonParser p, TraceEvent ev, TraceHandler handler) throws IOException {
        long n = 0;
        ParseState state = new ParseState();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t == null) throw new IOException("unexpected end of input inside 'traceEvents'");
            if (t != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            countEvent(++n);
            ev.reset();
            readEvent(p, ev, state);
            handler.event(ev);
        }
        return n;
    }

    /** The fields of one event object, its START_OBJECT read, into {@code ev} (reset by the caller). */
    void readEvent(JsonParser p, TraceEvent ev, ParseState state) throws IOException {
        TextIntern names = state.names;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken t = p.nextToken();
            switch (key) {
                case "ph" -> ev.ph = text(p, t, names);
                case "cat" -> ev.cat = text(p, t, names);
                case "name" -> ev.name = text(p, t, names);
                case "pid" -> ev.pidText = text(p, t, names);
                case "tid" -> ev.tidText = text(p, t, names);
                case "ts" -> ev.tsNs = micros(p, t);
                case "dur" -> ev.durNs = micros(p, t);
                case "args" -> {
                    if (t == JsonToken.START_OBJECT) readArgs(p, ev, state);
                    else p.skipChildren();
                }
                default -> p.skipChildren();
            }
        }
        state.read(ev);
    }

    private void readArgs(JsonParser p, TraceEvent ev, ParseState state) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken t = p.nextToken();
            switch (key) {
                case "External id", "external id" -> ev.externalId = id(p, t);
                case "correlation" -> ev.correlation = id(p, t);
                case "device" -> ev.device = id(p, t);
                case "stream" -> ev.stream = id(p, t);
                case "bytes", "Bytes" -> ev.bytes = id(p, t);
                case "Total Allocated" -> ev.totalAllocated = id(p, t);
                case "Total Reserved" -> ev.totalReserved = id(p, t);
                case "Device Type" -> ev.deviceType = id(p, t);
                case "Device Id" -> ev.deviceId = id(p, t);
                // types and dims are kept from an op's first event only: later ones are skipped undecoded (see ParseState)
                case "Input type" -> {
                    if (state.typesKept(ev.name)) p.skipChildren();
                    else ev.inputType = compact(p, t);
                }
                case "Input Dims", "Input dims" -> {
                    if (state.dimsKept(ev.name)) p.skipChildren();
                    else ev.inputDims = compact(p, t);
                }
                // every op event's call stack is a vote for the op's call site (KinetoCallSites)
                case "Call stack" -> ev.callStack = text(p, t, state.stacks);
                case "grid" -> ev.hasGrid = dims(p, t, ev.grid) | ev.hasGrid;
                case "block" -> dims(p, t, ev.block);
                // "theoretical occupancy %" in a 2021 build that named the same estimate differently
                case "est. achieved occupancy %", "theoretical occupancy %" -> ev.occupancyPct = percent(p, t);
                case "Sequence number" -> ev.seq = id(p, t);
                case "Fwd thread id" -> ev.fwdThread = id(p, t);
                case "blocks per SM" -> ev.blocksPerSm = real(p, t);
                case "warps per SM" -> ev.warpsPerSm = real(p, t);
                case "Collective name" -> ev.collective = text(p, t, state.names);
                case "In msg nelems", "In msg size" -> ev.inNelems = id(p, t);
                case "Out msg nelems", "Out msg size" -> ev.outNelems = id(p, t);
                case "dtype" -> ev.dtype = text(p, t, state.names);
                case "Group size" -> ev.groupSize = id(p, t);
                case "Process Group Name" -> ev.groupName = text(p, t, state.names);
                case "Process Group Description" -> ev.groupDesc = text(p, t, state.names);
                case "Rank" -> ev.commRank = id(p, t);
                default -> p.skipChildren();
            }
        }
    }

    /** A 0..100 share, or -1 when absent or not a number. */
    private static int percent(JsonParser p, JsonToken t) throws IOException {
        if (!t.isNumeric()) {
            p.skipChildren();
            return -1;
        }
        double v = p.getValueAsDouble();
        return Double.isFinite(v) && v >= 0 ? (int) Math.round(Math.min(100, v)) : -1;
    }

    /**
     * A scalar field's text (null for a null, and for an object or array, which is skipped), one String per
     * distinct value of {@code names}: names, categories, ids and call stacks repeat from event to event.
     */
    private static String text(JsonParser p, JsonToken t, TextIntern names) throws IOException {
        if (t == JsonToken.VALUE_NULL) return null;
        if (!t.isScalarValue()) {
            p.skipChildren();
            return null;
        }
        return names.intern(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
    }

    /** An integer literal that fits a long, read without making a String. */
    private static boolean plainLong(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.VALUE_NUMBER_INT) return false;
        JsonParser.NumberType n = p.getNumberType();
        return n == JsonParser.NumberType.INT || n == JsonParser.NumberType.LONG;
    }

    private static long micros(JsonParser p, JsonToken t) throws IOException {
        if (t.isNumeric() || t == JsonToken.VALUE_STRING) {
            try {
                if (plainLong(p, t)) return Math.multiplyExact(p.getLongValue(), 1000L);
                return MicrosText.toNanos(p.getText().trim());
            } catch (NumberFormatException | ArithmeticException e) {
                return TraceEvent.NONE;
            }
        }
        p.skipChildren();
        return TraceEvent.NONE;
    }

    private static double real(JsonParser p, JsonToken t) throws IOException {
        if (t.isNumeric()) return p.getValueAsDouble();
        p.skipChildren();
        return Double.NaN;
    }

    private static long id(JsonParser p, JsonToken t) throws IOException {
        if (t.isNumeric() || t == JsonToken.VALUE_STRING) {
            try {
                if (plainLong(p, t)) return p.getLongValue();
                return parseId(p.getText().trim());
            } catch (NumberFormatException e) {
                return TraceEvent.NONE;
            }
        }
        p.skipChildren();
        return TraceEvent.NONE;
    }

    /**
     * Integer ids, tolerating unsigned 64-bit values above {@code Long.MAX_VALUE} (seen in real
     * collective metadata): they keep their low 64 bits, which preserves equality between events.
     */
    static long parseId(String text) {
        int dot = text.indexOf('.');
        String digits = dot >= 0 ? text.substring(0, dot) : text;
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            return new BigInteger(digits).longValue();
        }
    }

    /** Compact text of a (nested) array value, bounded in length: {@code [[32,3,224,224],[]]}. */
    private static String compact(JsonParser p, JsonToken t) throws IOException {
        if (t.isScalarValue()) return t == JsonToken.VALUE_NULL ? null : p.getText();
        StringBuilder sb = new StringBuilder();
        int depth = 0;
        boolean needComma = false;
        do {
            if (t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT) {
                if (needComma) append(sb, ",");
                append(sb, t == JsonToken.START_ARRAY ? "[" : "{");
                depth++;
                needComma = false;
            } else if (t == JsonToken.END_ARRAY || t == JsonToken.END_OBJECT) {
                append(sb, t == JsonToken.END_ARRAY ? "]" : "}");
                depth--;
                needComma = true;
            } else if (t != JsonToken.FIELD_NAME) {
                if (needComma) append(sb, ",");
                append(sb, t == JsonToken.VALUE_STRING ? "\"" + p.getText() + "\"" : p.getText());
                needComma = true;
            }
            if (depth > 0) t = p.nextToken();
        } while (depth > 0 && t != null);
        return sb.toString();
    }

    private static void append(StringBuilder sb, String s) {
        if (sb.length() < MAX_SHAPE_TEXT) sb.append(s);
    }

    private static boolean dims(JsonParser p, JsonToken t, int[] out) throws IOException {
        if (t != JsonToken.START_ARRAY) {
            p.skipChildren();
            return false;
        }
        int i = 0;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY && t != null) {
            if (t.isNumeric() && i < 3) out[i] = (int) Math.min(Integer.MAX_VALUE, p.getValueAsLong());
            else p.skipChildren();
            i++;
        }
        return i > 0;
    }
}
