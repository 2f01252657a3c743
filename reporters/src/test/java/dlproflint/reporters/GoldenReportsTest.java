package dlproflint.reporters;

import dlproflint.reporters.sarif.SarifOptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Every format's complete output for {@link TestRuns#single}, compared with a reviewed file under
 * {@code src/test/resources/golden/}. A change of output shows up as a diff in review. To accept
 * an intended change, run with {@code -Dgolden.update=true} and review the diff of the golden files.
 */
class GoldenReportsTest {
    private static final String PROFILE = "/data/runs/w_Relu/nsys_profile.sqlite";

    @TempDir
    Path repo;

    @ParameterizedTest
    @ValueSource(strings = {"text", "json", "sarif", "csv", "expert-systems-csv"})
    void outputMatchesTheGoldenFile(String format) throws IOException {
        TestRuns.sourceTree(repo);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Reporters.create(format, new ReportOptions(SarifOptions.of(repo).withAnchor(Path.of("train.py"))))
                .render(TestRuns.single(PROFILE), out);
        String actual = out.toString(StandardCharsets.UTF_8);
        String name = "golden/single." + format.replace("expert-systems-csv", "expert-systems.csv");
        if (Boolean.getBoolean("golden.update")) {
            Path file = Path.of("src/test/resources").resolve(name);
            Files.createDirectories(file.getParent());
            Files.writeString(file, actual);
            return;
        }
        try (InputStream in = GoldenReportsTest.class.getResourceAsStream("/" + name)) {
            assertNotNull(in, name + " exists (create it with -Dgolden.update=true)");
            assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8), actual, format);
        }
    }
}
