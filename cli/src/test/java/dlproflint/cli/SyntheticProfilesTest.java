package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.synth.GpuModel;
import dlproflint.synth.SyntheticProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several nsys exports (one per "rank"), written by the synthetic profile generator, linted in one
 * parallel run: each is reported in the order given, with its own findings.
 */
class SyntheticProfilesTest {
    @TempDir
    Path dir;

    /** Profile {@code distinctKernels} different kernel names, each launched in 20 steps. */
    private Path profile(String name, int distinctKernels, long seed) throws Exception {
        Path file = dir.resolve(name);
        try (SyntheticProfile p = SyntheticProfile.options().gpus(GpuModel.A100_SXM4_40GB, 1).seed(seed).open(file)) {
            for (int step = 0; step < 20; step++) {
                p.push("train_step");
                for (int k = 0; k < distinctKernels; k++) {
                    p.push("aten::op" + k + ", seq = " + step).kernel("kernel_" + name.replace('.', '_') + "_" + k, 50_000).pop();
                }
                p.pop().cpu(10_000);
            }
        }
        return file;
    }

    @Test
    void ranksAreLintedInParallelAndReportedInOrder() throws Exception {
        new E2eFixture(dir);
        List<String> names = List.of("rank2.sqlite", "rank0.sqlite", "rank1.sqlite");
        List<Integer> kernels = List.of(3, 1, 2);
        List<String> args = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            profile(names.get(i), kernels.get(i), 40 + i);
            args.add(names.get(i));
        }
        byte[] before = Files.readAllBytes(dir.resolve("rank0.sqlite"));
        args.addAll(List.of("--rules", "site-pack", "-j", "3", "--report", "json=out.json", "--fail-on", "none"));
        CliHarness.Result r = new CliHarness(dir).run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r::toString);

        JsonNode profiles = E2eFixture.json(dir.resolve("out.json")).path("profiles");
        assertEquals(names.size(), profiles.size());
        for (int i = 0; i < names.size(); i++) {
            JsonNode p = profiles.get(i);
            assertTrue(p.path("path").asText().endsWith(names.get(i)), p.path("path").asText());
            int kernelFindings = 0;
            for (JsonNode f : p.path("findings")) {
                if (f.path("ruleId").asText().equals("site/kernel-seen")) {
                    kernelFindings++;
                    assertTrue(f.path("subject").path("ref").asText().contains(names.get(i).replace('.', '_')), f::toString);
                }
            }
            assertEquals(kernels.get(i), kernelFindings, "one finding per distinct kernel of " + names.get(i));
        }
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(dir.resolve("rank0.sqlite"))), "inputs untouched");
    }
}
