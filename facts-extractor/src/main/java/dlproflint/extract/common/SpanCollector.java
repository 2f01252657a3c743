package dlproflint.extract.common;

import dlproflint.detail.TimelineWindow;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Collects the spans of a {@link DetailWindow}, in any order, keeping the {@link TimelineWindow#MAX_SPANS} earliest
 * (a heap on their start: memory stays bounded whatever the trace holds), and names the lanes: GPU streams first, by
 * device and stream, then CPU threads, in the order first seen.
 */
public final class SpanCollector {
    private final DetailWindow window;
    private final PriorityQueue<TimelineWindow.Span> latestFirst =
            new PriorityQueue<>(Comparator.comparingLong(TimelineWindow.Span::startNs).reversed());
    private final Map<String, Integer> laneIds = new LinkedHashMap<>();
    private final List<TimelineWindow.Lane> lanes = new ArrayList<>();
    private int dropped;

    public SpanCollector(DetailWindow window) {
        this.window = window;
    }

    public boolean inWindow(long start, long end) {
        return window.contains(start, end);
    }

    /** The lane of a GPU stream. */
    public int gpuLane(int device, long stream) {
        return lane("GPU " + device + " · stream " + stream, true, device);
    }

    /** The lane of a CPU thread. */
    public int threadLane(String thread) {
        return lane("thread " + thread, false, -1);
    }

    private int lane(String label, boolean gpu, int device) {
        Integer id = laneIds.get(label);
        if (id != null) return id;
        laneIds.put(label, lanes.size());
        lanes.add(new TimelineWindow.Lane(label, gpu, device));
        return lanes.size() - 1;
    }

    public void add(int lane, long start, long end, TimelineWindow.Kind kind, String name, String category) {
        if (!inWindow(start, end)) return;
        latestFirst.add(new TimelineWindow.Span(lane, start, Math.max(start, end), kind, name, category));
        if (latestFirst.size() > TimelineWindow.MAX_SPANS) {
            latestFirst.poll();
            dropped++;
        }
    }

    /** The window: lanes sorted (GPU streams by device and stream, then threads), spans by start. */
    public TimelineWindow build() {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < lanes.size(); i++) order.add(i);
        order.sort(Comparator.comparing((Integer i) -> !lanes.get(i).gpu()).thenComparingInt(i -> lanes.get(i).device())
                .thenComparing(i -> naturalKey(lanes.get(i).label())));
        int[] newId = new int[lanes.size()];
        List<TimelineWindow.Lane> sortedLanes = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            newId[order.get(i)] = i;
            sortedLanes.add(lanes.get(order.get(i)));
        }
        List<TimelineWindow.Span> spans = new ArrayList<>();
        for (TimelineWindow.Span s : latestFirst) {
            spans.add(new TimelineWindow.Span(newId[s.lane()], s.startNs(), s.endNs(), s.kind(), s.name(), s.category()));
        }
        spans.sort(Comparator.comparingLong(TimelineWindow.Span::startNs).thenComparingInt(TimelineWindow.Span::lane));
        long start = window.startNs();
        long end = window.endNs();
        if (window.steps().isEmpty() && !spans.isEmpty()) {
            start = spans.get(0).startNs();
            end = spans.stream().mapToLong(TimelineWindow.Span::endNs).max().orElse(start);
        }
        return new TimelineWindow(window.focus(), start, end, window.steps(), sortedLanes, spans, dropped, window.why());
    }

    /** Labels with their numbers compared as numbers: stream 7 before stream 13. */
    private static String naturalKey(String label) {
        StringBuilder b = new StringBuilder();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\d+").matcher(label);
        int last = 0;
        while (m.find()) {
            b.append(label, last, m.start()).append(String.format("%020d", Long.parseLong(m.group().length() > 18 ? "0" : m.group())));
            last = m.end();
        }
        return b.append(label.substring(last)).toString();
    }
}
