package dlproflint.extract.kineto;

import dlproflint.facts.LaunchStat;

import java.util.Arrays;

/**
 * HTA's CUDA kernel launch statistics (launch call vs kernel duration, launch delay, their cutoffs) and queue
 * length per stream (+1 at each launch call, −1 when the GPU starts the operation), over the analysed range.
 */
final class LaunchQueue {
    /** HTA's {@code runtime_cutoff}. */
    static final long RUNTIME_CUTOFF_NS = 50_000;
    /** HTA's {@code launch_delay_cutoff}. */
    static final long DELAY_CUTOFF_NS = 100_000;

    private LaunchQueue() {
    }

    /** The statistics, or null when no kernel is linked to its launch call. */
    static LaunchStat of(GpuStreams s) {
        long launches = 0;
        long kernelNs = 0;
        long callNs = 0;
        long shorter = 0;
        long callOutliers = 0;
        long delayOutliers = 0;
        long empty = 0;
        long queueSum = 0;
        long[] delays = new long[s.size()];
        for (int g = 0; g < s.groups(); g++) {
            int from = s.groupStart[g];
            int to = s.groupStart[g + 1];
            // every linked operation of the stream enters the queue at its call's start and leaves it when it starts
            int linked = 0;
            for (int i = from; i < to; i++) if (s.linked(i)) linked++;
            long[] enter = new long[linked];
            long[] leave = new long[linked];
            int k = 0;
            for (int i = from; i < to; i++) {
                if (!s.linked(i)) continue;
                enter[k] = s.callStart(i);
                leave[k++] = s.start(i);
            }
            Arrays.sort(enter);
            Arrays.sort(leave);
            for (int i = from; i < to; i++) {
                if (!s.linked(i) || s.table(i) != GpuStreams.KERNEL) continue;
                long call = s.callDuration(i);
                long dur = s.duration(i);
                launches++;
                kernelNs += dur;
                callNs += call;
                if (dur < call && call <= RUNTIME_CUTOFF_NS) shorter++;
                if (call > RUNTIME_CUTOFF_NS) callOutliers++;
                long delay = Math.max(0, s.start(i) - s.callEnd(i));
                if (delay > DELAY_CUTOFF_NS) delayOutliers++;
                delays[(int) (launches - 1)] = delay;
                long at = s.callStart(i);
                long queue = Math.max(0, SortedLongs.below(enter, at) - SortedLongs.atOrBelow(leave, at));
                queueSum += queue;
                if (queue == 0) empty++;
            }
        }
        if (launches == 0) return null;
        long[] d = Arrays.copyOf(delays, (int) launches);
        Arrays.sort(d);
        long median = d.length % 2 == 1 ? d[d.length / 2] : (d[d.length / 2 - 1] + d[d.length / 2]) / 2;
        return new LaunchStat(launches, kernelNs, callNs, shorter, callOutliers, delayOutliers, median, empty,
                (double) queueSum / launches);
    }

}
