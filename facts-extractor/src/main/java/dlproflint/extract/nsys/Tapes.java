package dlproflint.extract.nsys;

import java.io.IOException;

/**
 * What the correlation pass's reads keep for the passes after it (issue 25: one read of every table): the kernel rows
 * for the GPU sweep, the CUDA API calls' times for the host's time per step. Each serves only where its table was
 * read to the end in storage order ({@link RowTape#complete}); else that pass reads the table itself.
 */
final class Tapes implements AutoCloseable {
    /** the kernel table's rows, for the GPU sweep */
    final KernelTape kernels = new KernelTape();
    /** every CUDA API call's start and end (the end kept as its difference from the start), for the host sweep */
    final RowTape callTimes = new RowTape("dlprof-lint-calls",
            new int[] {CorrelationPass.API_START, CorrelationPass.API_END}, new int[] {-1, 0});

    @Override
    public void close() throws IOException {
        try {
            kernels.close();
        } finally {
            callTimes.close();
        }
    }
}
