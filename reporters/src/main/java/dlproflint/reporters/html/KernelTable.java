package dlproflint.reporters.html;

import dlproflint.facts.KernelFact;

import java.util.Comparator;
import java.util.List;

/** Kernels sorted by GPU time (DLProf's Kernel Summaries table). */
public record KernelTable(List<Row> rows, int total) {

    public record Row(String name, String nameFull, String op, String opFull, int device, boolean usesTc,
                      long calls, String callsText, long gpuNs, String gpuTime, double avgNs, String avg,
                      long minNs, String min, long maxNs, String max, String grid, String block) {
    }

    static KernelTable of(List<KernelFact> kernels, int limit) {
        List<Row> rows = kernels.stream()
                .sorted(Comparator.comparingLong((KernelFact k) -> k.gpuTime().total()).reversed()
                        .thenComparing(k -> String.valueOf(k.name())))
                .limit(limit)
                .map(KernelTable::row)
                .toList();
        return new KernelTable(rows, kernels.size());
    }

    private static Row row(KernelFact k) {
        String full = k.longName() != null && !k.longName().isBlank() ? k.longName() : k.name();
        return new Row(Text.cell(k.name()), Text.clean(full), Text.cell(k.opId()), Text.clean(k.opId()),
                k.deviceId(), k.usesTc(), k.calls(), Fmt.count(k.calls()),
                k.gpuTime().total(), Fmt.duration(k.gpuTime().total()),
                k.gpuTime().avg(), Fmt.duration(k.gpuTime().avg()),
                k.gpuTime().min(), Fmt.duration(k.gpuTime().min()),
                k.gpuTime().max(), Fmt.duration(k.gpuTime().max()),
                Text.orDash(k.grid()), Text.orDash(k.block()));
    }
}
