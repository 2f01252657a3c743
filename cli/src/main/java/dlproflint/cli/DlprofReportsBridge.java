package dlproflint.cli;

import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The one place that calls the DLProf-format writers ({@code dlproflint.reporters.dlprof}). */
final class DlprofReportsBridge {
    /** DLProf 1.8's file name per report type ({@code <base>_<suffix>.<format>}). */
    private static final Map<String, String> SUFFIX = Map.of("summary", "summary", "detail", "detailed",
            "iteration", "iteration", "kernel", "kernel", "tensor", "tensor_core", "op_type", "op_type",
            "group_node", "group_op", "expert_systems", "expert_systems");

    private DlprofReportsBridge() {
    }

    static List<String> fileNames(String base, Set<String> reports, Set<String> formats) {
        List<String> names = new ArrayList<>();
        for (String r : reports) {
            for (String f : formats) names.add(base + "_" + SUFFIX.get(r) + "." + f);
        }
        return names;
    }

    static void checkAvailable() throws CliException {
        throw CliException.usage("report: DLProf-format reports are not available in this build");
    }

    static List<Path> write(ProfileReaders readers, Path profile, ReadOptions options, Set<String> reports,
                            Set<String> formats, Path dir, String base) throws ProfileException, IOException, CliException {
        throw CliException.usage("report: DLProf-format reports are not available in this build");
    }
}
