package dlproflint.extract.kineto;

import dlproflint.facts.InputCopyStat;

import java.util.Arrays;
import java.util.List;

/**
 * The batch copies of a training loop: host-to-device copies launched after a DataLoader call returned and
 * before the next kernel was launched ({@code for x, y in loader: x = x.to("cuda") ...}), and which of them
 * read pageable memory ({@code Memcpy HtoD (Pageable -> Device)}: the loader did not pin the batch).
 */
final class InputCopies {
    private InputCopies() {
    }

    /** @return the fact, or null without DataLoader calls or without such copies */
    static InputCopyStat of(GpuStreams s, long[] dataLoaderEnds, List<String> names) {
        if (dataLoaderEnds.length == 0) return null;
        int kernels = 0;
        for (int i = 0; i < s.size(); i++) if (s.table(i) == GpuStreams.KERNEL) kernels++;
        long[] kernelLaunches = new long[kernels];
        int k = 0;
        for (int i = 0; i < s.size(); i++) if (s.table(i) == GpuStreams.KERNEL) kernelLaunches[k++] = s.launchedAt(i);
        Arrays.sort(kernelLaunches);
        long copies = 0;
        long pageable = 0;
        long bytes = 0;
        long gpuNs = 0;
        long hostNs = 0;
        for (int i = 0; i < s.size(); i++) {
            if (s.table(i) != GpuStreams.MEMCPY) continue;
            String[] kinds = KinetoNames.memcpyKinds(names.get(s.nameIndex(i)));
            if (!"HtoD".equals(kinds[0])) continue;
            long at = s.launchedAt(i);
            int d = Arrays.binarySearch(dataLoaderEnds, at);
            if (d < 0) d = -d - 2;
            if (d < 0) continue; // before any DataLoader call returned
            long loaded = dataLoaderEnds[d];
            if (SortedLongs.between(kernelLaunches, loaded, at) > 0) continue; // the model already ran: not the batch copy
            copies++;
            if (!"Pageable".equals(kinds[1])) continue;
            pageable++;
            bytes += s.bytes(i);
            gpuNs += s.duration(i);
            hostNs += s.linked(i) ? s.callDuration(i) : s.duration(i);
        }
        return copies == 0 ? null : new InputCopyStat(copies, pageable, bytes, gpuNs, hostNs);
    }

}
