package dlproflint.extract.nsys;

import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.InstanceSink;
import dlproflint.facts.KernelInstance;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reader streams a table in storage order when that is already the order it needs and lets SQLite sort
 * it otherwise, finding out while it reads (see {@code OrderedScan}): a real export whose kernel, CUDA API
 * or NVTX rows are stored out of time order, early or late in the table, must give exactly the facts and
 * the per-kernel instances of the original.
 */
class StorageOrderTest {
    private static final NsysSqliteReader READER = new NsysSqliteReader();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}: {1} {2}")
    @CsvSource({
            "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite, CUPTI_ACTIVITY_KIND_KERNEL, last-first",
            "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite, CUPTI_ACTIVITY_KIND_RUNTIME, swap-middle",
            "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite, NVTX_EVENTS, last-first",
            "mohanadodema-dlprof/root/nsys_profile.sqlite, NVTX_EVENTS, swap-middle",
            "llama3-inference-nsys2024/real_inference_simulation.sqlite, CUPTI_ACTIVITY_KIND_KERNEL, swap-middle",
            "llama3-inference-nsys2024/real_inference_simulation.sqlite, CUPTI_ACTIVITY_KIND_RUNTIME, last-first",
            "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite, CUPTI_ACTIVITY_KIND_MEMCPY, last-first",
            "cutlass-bench-nsys2023/report1.sqlite, OSRT_API, last-first",
    })
    void rowsStoredOutOfOrderGiveTheSameFacts(String profile, String table, String how) throws Exception {
        Path original = Corpus.file(profile);
        Path moved = new Mutations(dir).sql(original, table + "-" + how, reorder(table, how));
        assertEquals(rowids(original, table).size(), rowids(moved, table).size());
        String disorder = "SELECT count(*) FROM (SELECT start < LAG(start) OVER (ORDER BY rowid) AS back FROM " + table
                + ") WHERE back";
        assertEquals(0, NsysCorpusTest.count(original, disorder), "the corpus file is stored in time order");
        assertTrue(NsysCorpusTest.count(moved, disorder) > 0, "the copy is not");
        ReadOptions opts = ReadOptions.DEFAULT;
        assertEquals(JSON.writeValueAsString(READER.read(original, opts)).replace(original.toString(), "P"),
                JSON.writeValueAsString(READER.read(moved, opts)).replace(moved.toString(), "P"),
                table + " stored out of order (" + how + ")");
        assertEquals(instances(original), instances(moved));
    }

    /**
     * Statements that rewrite {@code table} in another storage order, keeping every row: its last row moved to
     * the front (caught at the second row), or two rows in the middle swapped (caught half way).
     */
    private static String[] reorder(String table, String how) {
        String order = how.equals("last-first")
                ? "CASE WHEN rowid = (SELECT MAX(rowid) FROM " + table + ") THEN 0 ELSE 1 END, rowid"
                : "CASE WHEN rowid = m THEN m + 1 WHEN rowid = m + 1 THEN m ELSE rowid END";
        String from = how.equals("last-first") ? table
                : table + ", (SELECT (SELECT MAX(rowid) FROM " + table + ") / 2 AS m)";
        String cols = "*";
        if (!how.equals("last-first")) cols = table + ".*";
        return new String[] {
                "CREATE TABLE reordered AS SELECT " + cols + " FROM " + from + " ORDER BY " + order,
                "DELETE FROM " + table,
                "INSERT INTO " + table + " SELECT * FROM reordered",
                "DROP TABLE reordered",
        };
    }

    private static List<Long> rowids(Path db, String table) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (var c = NsysCorpusTest.plain(db); var rs = c.createStatement().executeQuery("SELECT rowid FROM " + table)) {
            while (rs.next()) ids.add(rs.getLong(1));
        }
        return ids;
    }

    private static List<String> instances(Path file) throws Exception {
        List<String> out = new ArrayList<>();
        InstanceSink sink = (KernelInstance i) -> out.add(i.toString());
        READER.streamInstances(file, ReadOptions.DEFAULT, sink);
        return out;
    }
}
