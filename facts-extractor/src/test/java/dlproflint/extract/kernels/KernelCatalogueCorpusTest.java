package dlproflint.extract.kernels;

import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kernel catalogue against every kernel name in the corpus (nsys exports, DLProf databases, Kineto
 * traces, read straight from the files): each one is classified, or is listed as unknown in the committed
 * {@code unknown-corpus-kernels.txt} - listed, not guessed. The list is exact both ways: a name the
 * catalogue learns to classify must leave it. Rewrite it with {@code -Dkernels.update=true} and review the diff.
 */
class KernelCatalogueCorpusTest {
    private static final String UNKNOWN_LIST = "facts-extractor/src/test/resources/dlproflint/extract/kernels/unknown-corpus-kernels.txt";

    @Test
    void everyCorpusKernelNameIsClassifiedOrListedAsUnknown() throws Exception {
        Map<CorpusKernelNames.Name, TreeSet<String>> names = CorpusKernelNames.all();
        assertTrue(names.size() > 500, "the corpus holds hundreds of distinct kernel names, found " + names.size());
        KernelCatalogue catalogue = KernelCatalogue.builtin();
        TreeSet<String> unknown = new TreeSet<>();
        Map<String, Integer> byFamily = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (Map.Entry<CorpusKernelNames.Name, TreeSet<String>> e : names.entrySet()) {
            CorpusKernelNames.Name n = e.getKey();
            KernelClass c = catalogue.classify(n.shortName(), n.longName());
            if (!c.known()) {
                unknown.add(n.longName());
                continue;
            }
            byFamily.merge(c.family() + (c.tensorCores() ? " (tensor cores)" : ""), 1, Integer::sum);
            // a tensor-core kernel always says what it multiplies: its precision is part of the claim
            if (c.tensorCores() && c.precision() == null) problems.add("tensor-core kernel without precision: " + n.longName());
            // CUDA-core fp32 GEMM/convolution names never run on tensor cores
            if (c.tensorCores() && n.longName().matches("(?s).*(?:_sgemm_|_scudnn_|simt_sgemm).*")) {
                problems.add("SIMT kernel classified as tensor-core: " + n.longName());
            }
        }
        System.out.println("kernel catalogue on the corpus: " + names.size() + " distinct names, " + unknown.size()
                + " unknown; by family: " + byFamily);
        assertEquals(List.of(), problems);
        Path list = Corpus.repoRoot().resolve(UNKNOWN_LIST);
        String actual = String.join("\n", unknown) + "\n";
        if (Boolean.getBoolean("kernels.update")) {
            Files.writeString(list, actual, StandardCharsets.UTF_8);
            return;
        }
        assertTrue(Files.exists(list), list + " missing; run with -Dkernels.update=true");
        assertEquals(Files.readString(list, StandardCharsets.UTF_8), actual,
                "corpus kernel names the catalogue does not classify differ from " + UNKNOWN_LIST
                        + " (classify them in kernel-catalogue.tsv, or list them with -Dkernels.update=true)");
    }

    @Test
    void everyUnknownNameIsReallyInTheCorpus() throws IOException {
        Path list = Corpus.repoRoot().resolve(UNKNOWN_LIST);
        assertNotNull(Corpus.file("."));
        for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
            if (line.isBlank()) continue;
            assertTrue(!KernelCatalogue.builtin().classify(line).known(), "listed as unknown but classified: " + line);
        }
    }
}
