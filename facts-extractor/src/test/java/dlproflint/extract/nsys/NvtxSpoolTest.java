package dlproflint.extract.nsys;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The NVTX spool gives back every event as written, in its order or merged across processes by start. */
class NvtxSpoolTest {
    private record Event(long pid, long tid, long start, long end, boolean noEnd, int type, boolean registered,
                         long textId, String text, int category) {
    }

    private static List<Event> events(long seed, int processes, int perProcess) {
        Random r = new Random(seed);
        List<Event> out = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            long pid = 1000L + p * 7;
            for (int i = 0; i < perProcess; i++) {
                long start = r.nextInt(1 << 20) + (r.nextBoolean() ? 1_000_000_000_000L : 0);
                boolean noEnd = r.nextInt(20) == 0;
                int type = r.nextInt(10) == 0 ? NvtxSpool.TYPE_MARK : r.nextInt(3) == 0 ? NvtxSpool.TYPE_START_END
                        : r.nextInt(50) == 0 ? 75 : NvtxSpool.TYPE_PUSH_POP;
                boolean registered = r.nextInt(4) == 0;
                String text = registered ? null : switch (r.nextInt(5)) {
                    case 0 -> null;
                    case 1 -> "";
                    case 2 -> "aten::conv2d, seq = " + r.nextInt(100000);
                    case 3 -> "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ \u00e9\u4e2d\ud83d\ude00";
                    default -> "x".repeat(r.nextInt(3) == 0 ? 70_000 + r.nextInt(100) : r.nextInt(300));
                };
                // an end before the start is kept as recorded (the readers count it)
                long end = noEnd ? 0 : start + r.nextInt(5000) - (r.nextInt(30) == 0 ? 10_000 : 0);
                out.add(new Event(pid, (pid << 24) + r.nextInt(3), start, end, noEnd, type, registered,
                        registered ? r.nextInt(1 << 30) : 0, text, r.nextInt(8)));
            }
        }
        // the spool's order: process, start, end descending (no end: as 0)
        out.sort(Comparator.comparingLong(Event::pid).thenComparingLong(Event::start)
                .thenComparing(Comparator.comparingLong(NvtxSpoolTest::endKey).reversed()));
        return out;
    }

    private static long endKey(Event e) {
        return e.noEnd() ? 0 : e.end();
    }

    private static void write(NvtxSpool spool, List<Event> events) throws IOException {
        for (Event e : events) {
            spool.add(e.pid(), e.tid(), e.start(), e.end(), e.noEnd(), e.type(), e.registered(), e.textId(), e.text(),
                    e.category());
        }
        spool.finish();
    }

    private static Event read(NvtxSpool.Row r) {
        return new Event(r.pid, r.tid, r.start, r.noEnd ? 0 : r.end, r.noEnd, r.type, r.registered, r.textId, r.text(),
                r.category());
    }

    private static List<Event> readAll(NvtxSpool.Reader reader) throws Exception {
        List<Event> out = new ArrayList<>();
        for (NvtxSpool.Row r; (r = reader.next()) != null; ) out.add(read(r));
        reader.close();
        return out;
    }

    @Test
    void everyEventComesBackAsWrittenInTheSpoolsOrder() throws Exception {
        List<Event> events = events(25, 3, 4000);
        try (NvtxSpool spool = new NvtxSpool()) {
            write(spool, events);
            assertEquals(events.size(), spool.rows());
            assertEquals(events, readAll(spool.inOrder()));
            // a second reader starts from the beginning again
            assertEquals(events, readAll(spool.inOrder()));
        }
    }

    @Test
    void byStartMergesTheProcessesByStartThenEndDescending() throws Exception {
        List<Event> events = events(26, 4, 3000);
        List<Event> expected = new ArrayList<>(events);
        expected.sort(Comparator.comparingLong(Event::start)
                .thenComparing(Comparator.comparingLong(NvtxSpoolTest::endKey).reversed()));
        try (NvtxSpool spool = new NvtxSpool()) {
            write(spool, events);
            List<Event> merged = readAll(spool.byStart());
            assertEquals(events.size(), merged.size());
            for (int i = 0; i < merged.size(); i++) {
                // ties between processes may come in either order: the keys must match at every position
                assertEquals(expected.get(i).start(), merged.get(i).start(), "start at " + i);
                assertEquals(endKey(expected.get(i)), endKey(merged.get(i)), "end at " + i);
            }
            assertEquals(new java.util.HashSet<>(events), new java.util.HashSet<>(merged));
        }
    }

    /**
     * nsys stores a push/pop range when it ends: each enclosing range after its content, the processes' rows
     * interleaved as they ended. Written in that order, the rows come back in the spool's order all the same, a few
     * runs a process (one a level of nesting), and merged across processes by start.
     */
    @Test
    void rangesStoredWhenTheyEndComeBackInOrder() throws Exception {
        Random r = new Random(30);
        List<Event> events = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            long pid = 2000L + p;
            long t = r.nextInt(1000);
            for (int step = 0; step < 200; step++) {
                // a step range around ops, each around a kernel launch's range or two
                long stepStart = t;
                t += 1 + r.nextInt(5);
                for (int op = 0; op < 1 + r.nextInt(6); op++) {
                    long opStart = t;
                    t += 1 + r.nextInt(3);
                    for (int inner = 0; inner < r.nextInt(3); inner++) {
                        long s0 = t;
                        t += 1 + r.nextInt(4);
                        events.add(new Event(pid, pid << 24, s0, t, false, NvtxSpool.TYPE_PUSH_POP, false, 0,
                                "aten::inner, seq = " + step, 0));
                        t += 1;
                    }
                    t += 1;
                    events.add(new Event(pid, pid << 24, opStart, t, false, NvtxSpool.TYPE_PUSH_POP, false, 0,
                            "aten::op" + op + ", seq = " + step, 0));
                    t += 1;
                }
                events.add(new Event(pid, pid << 24, stepStart, ++t, false, NvtxSpool.TYPE_PUSH_POP, false, 0,
                        "ProfilerStep#" + step, 0));
                t += 2;
            }
        }
        List<Event> stored = new ArrayList<>(events);
        stored.sort(Comparator.comparingLong(NvtxSpoolTest::endKey)); // as they ended, the processes interleaved
        List<Event> inOrder = new ArrayList<>(events);
        inOrder.sort(Comparator.comparingLong(Event::pid).thenComparingLong(Event::start)
                .thenComparing(Comparator.comparingLong(NvtxSpoolTest::endKey).reversed()));
        List<Event> byStart = new ArrayList<>(events);
        byStart.sort(Comparator.comparingLong(Event::start)
                .thenComparing(Comparator.comparingLong(NvtxSpoolTest::endKey).reversed()).thenComparingLong(Event::pid));
        try (NvtxSpool spool = new NvtxSpool()) {
            Comparator<Event> key = Comparator.comparingLong(Event::pid).thenComparingLong(Event::start)
                    .thenComparing(Comparator.comparingLong(NvtxSpoolTest::endKey).reversed());
            boolean ordered = true;
            for (int i = 0; i < stored.size(); i++) {
                Event e = stored.get(i);
                spool.add(e.pid(), e.tid(), e.start(), e.end(), e.noEnd(), e.type(), e.registered(), e.textId(), e.text(),
                        e.category());
                ordered &= i == 0 || key.compare(stored.get(i - 1), e) <= 0;
                assertEquals(ordered, spool.ordered(), "in order until the first row before its predecessor, at " + i);
            }
            assertFalse(spool.ordered());
            spool.finish();
            assertEquals(3 * 3, spool.runs(), "one run a level of nesting (step, op, inner range), each process");
            assertEquals(inOrder, readAll(spool.inOrder()));
            assertEquals(inOrder, readAll(spool.inOrder()), "a second reader reads the same");
            // equal starts of two processes: each sweep's own order, so compare the keys and the set
            List<Event> merged = readAll(spool.byStart());
            assertEquals(byStart.stream().map(e -> e.start() + "/" + e.end()).toList(),
                    merged.stream().map(e -> e.start() + "/" + e.end()).toList());
            assertEquals(new java.util.HashSet<>(events), new java.util.HashSet<>(merged));
        }
    }

    /** Random rows, written by end instead of by start, come back in the spool's order. */
    @Test
    void rowsWrittenByEndComeBackByStart() throws Exception {
        List<Event> events = events(31, 3, 4000);
        List<Event> stored = new ArrayList<>(events);
        stored.sort(Comparator.comparingLong(NvtxSpoolTest::endKey).thenComparingLong(Event::pid));
        try (NvtxSpool spool = new NvtxSpool()) {
            write(spool, stored);
            assertFalse(spool.ordered());
            assertTrue(spool.runs() > 16, "more runs than the merge searches one by one: " + spool.runs());
            List<Event> back = readAll(spool.inOrder());
            // rows of equal keys may come in another order: the keys at every position, and the set
            assertEquals(events.stream().map(e -> e.pid() + "/" + e.start() + "/" + endKey(e)).toList(),
                    back.stream().map(e -> e.pid() + "/" + e.start() + "/" + endKey(e)).toList());
            assertEquals(new java.util.HashSet<>(events), new java.util.HashSet<>(back));
        }
    }

    /** Rows in the spool's order make one run a process; rows in reverse order soon too many, and are refused. */
    @Test
    void rowsInOrderMakeOneRunAndRowsInReverseTooMany() throws Exception {
        try (NvtxSpool spool = new NvtxSpool()) {
            write(spool, events(32, 4, 500));
            assertTrue(spool.ordered());
            assertEquals(4, spool.runs());
        }
        try (NvtxSpool spool = new NvtxSpool()) {
            for (int i = 0; i < NvtxSpool.MAX_RUNS; i++) {
                spool.add(1, 1, 1_000 - i, 2_000, false, NvtxSpool.TYPE_PUSH_POP, false, 0, (byte[]) null, 0, null);
            }
            assertEquals(NvtxSpool.MAX_RUNS, spool.runs());
            org.junit.jupiter.api.Assertions.assertThrows(NvtxSpool.TooManyRuns.class, () -> spool.add(1, 1, 0, 2_000,
                    false, NvtxSpool.TYPE_PUSH_POP, false, 0, (byte[]) null, 0, null));
            assertEquals(NvtxSpool.MAX_RUNS, spool.rows(), "the row refused was not written");
        }
    }

    @Test
    void resetForgetsWhatWasWrittenAndCloseRemovesTheFile() throws Exception {
        Path file;
        try (NvtxSpool spool = new NvtxSpool()) {
            write(spool, events(27, 2, 5000));
            spool.reset();
            assertEquals(0, spool.rows());
            assertNull(spool.inOrder().next());
            List<Event> again = events(28, 1, 100);
            write(spool, again);
            assertEquals(again, readAll(spool.byStart()));
            file = spool.file();
            assertTrue(file != null, "a spool with rows is a file");
        }
        assertFalse(Files.exists(file), "closing the spool removes its file");
    }

    @Test
    void anEmptySpoolReadsNothingAndMakesNoFile() throws Exception {
        try (NvtxSpool spool = new NvtxSpool()) {
            spool.finish();
            assertNull(spool.inOrder().next());
            assertNull(spool.byStart().next());
            assertNull(spool.file());
        }
    }

    /**
     * An emit_nvtx op range is stored with its name's parse and number: read back, it makes the MarkerText a parse of
     * its text makes (the correlation pass then parses no text twice), past the bound of names held too, and beside
     * plain texts, registered strings and texts in other scripts.
     */
    @Test
    void opRangesComeBackAsTheirTextsParseWithoutParsingThem() throws Exception {
        List<String> texts = new ArrayList<>(List.of("ConvolutionBackward0, seq = 12", "aten::add, seq = 3, op_id = 9",
                "plain step", "", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                "aten::mm, seq = 1 \u00e9", "x, seq = 5"));
        for (int i = 0; i < NvtxSpool.MAX_NAMES + 3_000; i++) {
            texts.add("aten::op" + i + ", seq = " + (i * 7 % 1000));
            if (i == 10) texts.add("aten::op5, seq = 99"); // a name held already
        }
        java.util.Map<String, MarkerText> byName = new java.util.HashMap<>();
        try (NvtxSpool spool = new NvtxSpool()) {
            long start = 0;
            for (String t : texts) {
                MarkerText m = MarkerText.of(t, false, byName);
                spool.add(1, 1, start++, start, false, NvtxSpool.TYPE_PUSH_POP, false, 0, t, m.flags(), m);
            }
            spool.finish();
            MarkerText.Parser parser = new MarkerText.Parser(null);
            NvtxSpool.Reader in = spool.inOrder();
            int named = 0;
            for (String t : texts) {
                NvtxSpool.Row r = in.next();
                if (r.named != null) named++;
                assertReadsAsItsText(t, r.marker(parser));
            }
            assertNull(in.next());
            // every op range of a name held came with its parse: the bound's worth of names, one of them twice (the
            // names past the bound, and the texts that are no op range, came without)
            assertEquals(NvtxSpool.MAX_NAMES + 1, named);
        }
    }
    /**
     * An op range spelt as PyTorch spells it is kept as its name's parse and number, without its text: read back, its
     * text is spelt again, the same, and it reads as its text parses; any other text is kept as it was. Written from
     * the texts' bytes as the evidence pass writes them, the spool is smaller by at least those texts' bytes.
     */
    @Test
    void canonicalOpRangesAreKeptWithoutTheirTextAndComeBackSpeltAsTheyWere() throws Exception {
        List<String> texts = new ArrayList<>(List.of("aten::add, seq = 3, op_id = 9", "aten::mm, seq = 007", "plain step",
                "", "my_op, seq = 4", "aten::\u00e9, seq = 5", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
        long canonicalBytes = 0;
        for (int i = 0; i < 5_000; i++) {
            String t = (i % 3 == 0 ? "ConvolutionBackward0" : "aten::op" + (i % 40)) + ", seq = " + i;
            texts.add(t);
            canonicalBytes += t.length();
        }
        long[] size = new long[2];
        for (int asBytes = 0; asBytes < 2; asBytes++) {
            MarkerText.Parser parser = new MarkerText.Parser(null);
            try (NvtxSpool spool = new NvtxSpool()) {
                long start = 0;
                for (String t : texts) {
                    byte[] utf8 = t.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    MarkerText m = asBytes == 1 ? parser.parse(utf8, false, 0) : MarkerText.of(t, false, new java.util.HashMap<>());
                    spool.add(1, 1, start++, start, false, NvtxSpool.TYPE_PUSH_POP, false, 0, utf8, m.flags(), m);
                }
                spool.finish();
                size[asBytes] = spool.bytes();
                NvtxSpool.Reader in = spool.inOrder();
                int canonical = 0;
                MarkerText.Parser reader = new MarkerText.Parser(null);
                java.util.Set<MarkerText> shapes = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
                for (String t : texts) {
                    NvtxSpool.Row r = in.next();
                    assertEquals(t, r.text());
                    MarkerText m = r.marker(reader);
                    if (r.canonical()) {
                        canonical++;
                        shapes.add(m);
                        // a canonical range's marker is its name's shape: no text of its own, its number the row's
                        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, m::text);
                    }
                    assertReadsAsItsText(t, m.withSeq(r.seqOf(m)));
                }
                assertNull(in.next());
                assertEquals(asBytes == 1 ? 5_000 : 0, canonical);
                // one shape a name (and classification), not an object a range
                assertEquals(asBytes == 1 ? 41 : 0, shapes.size());
            }
        }
        assertTrue(size[0] - size[1] >= canonicalBytes, size[0] + " -> " + size[1]);
    }

    /** A range read back is what a parse of its text gives. */
    private static void assertReadsAsItsText(String text, MarkerText got) {
        MarkerText want = MarkerText.of(text, false);
        assertEquals(List.of(want.kind, want.text(), String.valueOf(want.name), String.valueOf(want.type), want.direction,
                want.seq, want.flags()), List.of(got.kind, got.text(), String.valueOf(got.name), String.valueOf(got.type),
                got.direction, got.seq, got.flags()), text);
    }
}
