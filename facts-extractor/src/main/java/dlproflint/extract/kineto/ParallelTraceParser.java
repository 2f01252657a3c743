package dlproflint.extract.kineto;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Parses a large plain-JSON trace on several threads; the handler still receives every event in file order
 * on the calling thread, so the aggregation is exactly the serial one. The {@code traceEvents} array is cut
 * into chunks of about {@link #CHUNK_BYTES} at places that look like a boundary between two events
 * ({@code }, {}); each chunk is parsed by a pool thread into event copies. A chunk's start is trusted only
 * when the chunk before it ended exactly there, on an event of the array (a false cut, inside a string or a
 * nested object, ends the chunk before it elsewhere). Whatever cannot be trusted (a false cut, malformed
 * JSON anywhere, a layout this does not expect) throws {@link Fallback} and the caller parses the file
 * serially, which gives the exact error message. Memory: the chunks in flight, a few times
 * {@code CHUNK_BYTES} of events.
 */
final class ParallelTraceParser {
    /** Files smaller than this are parsed serially: the threads would not pay for themselves. */
    static final long MIN_FILE_BYTES = 48L << 20;
    static final int CHUNK_BYTES = 8 << 20;
    private static final byte[] ARRAY_OPEN = "[".getBytes(StandardCharsets.US_ASCII);
    /** Makes the bytes after the event array ({@code , "key": value ... }} a complete object to parse. */
    private static final byte[] TAIL_OPEN = "{\"\":0".getBytes(StandardCharsets.US_ASCII);

    /** The parallel parse cannot vouch for its result: parse serially, with a fresh handler. */
    static final class Fallback extends Exception {
        Fallback(String why) {
            super(why, null, false, false);
        }
    }

    private final int chunkBytes;
    private final TraceParser head;
    /** chunk parsers start inside the array: one level less to reach the same nesting limit */
    private final TraceParser inner;
    private final int threads;

    ParallelTraceParser(int threads, TraceLimits limits) {
        this(threads, CHUNK_BYTES, limits);
    }

    /** @param chunkBytes about how much JSON one thread parses at a time (small in tests, to cut often) */
    ParallelTraceParser(int threads, int chunkBytes, TraceLimits limits) {
        this.threads = threads;
        this.chunkBytes = chunkBytes;
        head = new TraceParser(limits);
        inner = new TraceParser(limits, TraceParser.MAX_NESTING - 1);
    }

    /** What one chunk held: its events in order, and where it stopped. */
    private record Chunk(long start, List<TraceEvent> events, long nextEvent, long arrayEnd) {
    }

    /** Delivers every event to {@code handler}; on {@link Fallback} the handler has seen part of the file. */
    void parse(Path file, TraceHandler handler) throws Fallback {
        parse(file, handler, dlproflint.extract.ReadProgress.NONE);
    }

    /** @param progress told the bytes handed to the handler so far, after each chunk */
    void parse(Path file, TraceHandler handler, dlproflint.extract.ReadProgress progress) throws Fallback {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            long first = firstEvent(ch, handler);
            List<Long> starts = cuts(ch, first, size, chunkBytes);
            ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "dlprof-lint-kineto");
                t.setDaemon(true);
                return t;
            });
            try {
                Deque<Future<Chunk>> inFlight = new ArrayDeque<>();
                int next = 0;
                long expected = first;
                long delivered = 0;
                while (true) {
                    while (next < starts.size() && inFlight.size() < threads + 2) {
                        long start = starts.get(next);
                        long limit = next + 1 < starts.size() ? starts.get(next + 1) : Long.MAX_VALUE;
                        next++;
                        inFlight.add(pool.submit(() -> chunk(file, start, limit)));
                    }
                    if (inFlight.isEmpty()) throw new Fallback("the event array does not end");
                    if (Thread.interrupted()) throw new IOException("interrupted");
                    Chunk c = result(inFlight.poll());
                    if (c.start() != expected) throw new Fallback("a cut at " + c.start() + " is not between two events");
                    for (TraceEvent e : c.events()) {
                        head.countEvent(++delivered); // the trace's limits, as the serial parse applies them
                        handler.event(e);
                    }
                    if (c.arrayEnd() >= 0) {
                        tail(ch, c.arrayEnd(), handler);
                        return;
                    }
                    expected = c.nextEvent();
                    progress.update(expected, size);
                }
            } finally {
                pool.shutdownNow();
            }
        } catch (IOException e) {
            throw new Fallback("cannot read: " + e.getMessage());
        }
    }

    private static Chunk result(Future<Chunk> f) throws Fallback {
        try {
            return f.get();
        } catch (ExecutionException e) {
            throw new Fallback("a chunk did not parse: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fallback("interrupted");
        }
    }

    /**
     * Reads the top-level fields before the event array (handing them to the handler as the serial parser
     * does) and returns the byte offset of the array's first event.
     */
    private long firstEvent(FileChannel ch, TraceHandler handler) throws IOException, Fallback {
        try (JsonParser p = head.factory().createParser(stream(ch, 0))) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new Fallback("not an object");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken t = p.nextToken();
                if (key.equals("traceEvents")) {
                    if (t != JsonToken.START_ARRAY || p.nextToken() != JsonToken.START_OBJECT) {
                        throw new Fallback("'traceEvents' does not start with an event");
                    }
                    return p.currentTokenLocation().getByteOffset();
                }
                head.topLevel(p, key, t, handler);
            }
            throw new Fallback("no 'traceEvents'");
        } catch (IOException e) {
            throw new Fallback("unreadable head: " + e.getMessage());
        }
    }

    /** Chunk starts: the first event, then the first {@code }, {} after every {@code chunkBytes}. */
    private static List<Long> cuts(FileChannel ch, long first, long size, int chunkBytes) throws IOException {
        List<Long> starts = new ArrayList<>();
        starts.add(first);
        ByteBuffer buf = ByteBuffer.allocate(64 << 10);
        for (long at = first + chunkBytes; at < size; at += chunkBytes) {
            long cut = boundaryAfter(ch, at, buf);
            if (cut < 0) break;
            if (cut > starts.get(starts.size() - 1)) starts.add(cut);
            at = Math.max(at, cut);
        }
        return starts;
    }

    /** Offset of the {@code {} of the first {@code }, {} (whitespace allowed) at or after {@code from}, or -1. */
    private static long boundaryAfter(FileChannel ch, long from, ByteBuffer buf) throws IOException {
        int state = 0; // 0: looking for '}', 1: after '}', 2: after '},'
        long pos = from;
        while (true) {
            buf.clear();
            int n = ch.read(buf, pos);
            if (n <= 0) return -1;
            for (int i = 0; i < n; i++) {
                byte b = buf.get(i);
                boolean ws = b == ' ' || b == '\n' || b == '\r' || b == '\t';
                if (state == 1) {
                    if (b == ',') state = 2;
                    else if (!ws) state = b == '}' ? 1 : 0;
                } else if (state == 2) {
                    if (b == '{') return pos + i;
                    if (!ws) state = b == '}' ? 1 : 0;
                } else if (b == '}') {
                    state = 1;
                }
            }
            pos += n;
        }
    }

    /**
     * Parses the events from {@code start} (an event's {@code {}) up to the first event at or after
     * {@code limit}, or to the end of the array.
     */
    private Chunk chunk(Path file, long start, long limit) throws IOException {
        List<TraceEvent> events = new ArrayList<>();
        TraceEvent ev = new TraceEvent();
        ParseState state = new ParseState();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
             JsonParser p = inner.factory().createParser(new SequenceInputStream(new ByteArrayInputStream(ARRAY_OPEN),
                     stream(ch, start)))) {
            if (p.nextToken() != JsonToken.START_ARRAY) throw new IOException("no array");
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                if (t == null) throw new IOException("unexpected end of input inside 'traceEvents'");
                long at = start + p.currentTokenLocation().getByteOffset() - ARRAY_OPEN.length;
                if (t != JsonToken.START_OBJECT) {
                    p.skipChildren();
                    continue;
                }
                if (at >= limit) return new Chunk(start, events, at, -1);
                ev.reset();
                inner.readEvent(p, ev, state);
                events.add(ev.copy());
            }
            long close = start + p.currentTokenLocation().getByteOffset() - ARRAY_OPEN.length;
            return new Chunk(start, events, -1, close + 1);
        }
    }

    /** The top-level fields after the event array, up to the end of the document. */
    private void tail(FileChannel ch, long after, TraceHandler handler) throws Fallback {
        try (JsonParser p = head.factory().createParser(new SequenceInputStream(new ByteArrayInputStream(TAIL_OPEN),
                stream(ch, after)))) {
            p.nextToken();
            boolean placeholder = true;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken t = p.nextToken();
                if (placeholder) {
                    placeholder = false; // the field TAIL_OPEN put there
                    continue;
                }
                if (key.equals("traceEvents")) throw new Fallback("a second 'traceEvents'");
                head.topLevel(p, key, t, handler);
            }
            if (p.nextToken() != null) throw new Fallback("content after the document");
        } catch (IOException e) {
            throw new Fallback("unreadable tail: " + e.getMessage());
        }
    }

    /** The channel's bytes from {@code position}; closing the stream (the parser does) leaves the channel open. */
    private static InputStream stream(FileChannel ch, long position) throws IOException {
        return new FilterInputStream(Channels.newInputStream(ch.position(position))) {
            @Override
            public void close() {
                // the channel is closed by its owner
            }
        };
    }
}
