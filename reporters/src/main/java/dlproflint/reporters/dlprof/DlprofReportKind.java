package dlproflint.reporters.dlprof;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The DLProf reports dlprof-lint writes, named as DLProf's {@code --reports} option names them, with
 * the file stem DLProf 1.8 used ({@code dlprof_<stem>.csv}).
 */
public enum DlprofReportKind {
    SUMMARY("summary", "summary"),
    DETAIL("detail", "detailed", "detailed"),
    ITERATION("iteration", "iteration"),
    KERNEL("kernel", "kernel"),
    TENSOR("tensor", "tensor_core", "tensor_core"),
    OP_TYPE("op_type", "op_type"),
    GROUP_NODE("group_node", "group_op", "group_op");

    private final String id;
    private final String fileStem;
    private final List<String> aliases;

    DlprofReportKind(String id, String fileStem, String... aliases) {
        this.id = id;
        this.fileStem = fileStem;
        this.aliases = List.of(aliases);
    }

    /** Name as given to {@code --reports} ({@code summary}, {@code detail}, ...). */
    public String id() {
        return id;
    }

    /** Part of the file name after the base name: {@code dlprof_<fileStem>.csv}. */
    public String fileStem() {
        return fileStem;
    }

    /**
     * Parses a comma-separated list such as {@code summary,detail,kernel}; {@code all} selects every
     * report. Names are case-insensitive; the file stems ({@code detailed}, {@code tensor_core},
     * {@code group_op}) are accepted as aliases.
     *
     * @throws IllegalArgumentException naming the unknown report and listing the known ones
     */
    public static Set<DlprofReportKind> parse(String list) {
        if (list == null || list.isBlank()) throw new IllegalArgumentException("no report names given; known reports: " + known());
        Set<DlprofReportKind> kinds = EnumSet.noneOf(DlprofReportKind.class);
        for (String raw : list.split(",")) {
            String name = raw.trim().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) continue;
            if (name.equals("all")) {
                kinds.addAll(EnumSet.allOf(DlprofReportKind.class));
                continue;
            }
            kinds.add(byName(name, raw.trim()));
        }
        if (kinds.isEmpty()) throw new IllegalArgumentException("no report names given; known reports: " + known());
        return kinds;
    }

    private static DlprofReportKind byName(String name, String original) {
        for (DlprofReportKind k : values()) {
            if (k.id.equals(name) || k.aliases.contains(name)) return k;
        }
        String hint = switch (name) {
            case "expert_systems" -> " (DLProf's expert systems are dlprof-lint's rules: run 'dlprof-lint lint')";
            case "node_op" -> " (DLProf's node_op report is not produced; use detail)";
            default -> "";
        };
        throw new IllegalArgumentException("unknown report '" + original + "'" + hint + "; known reports: " + known());
    }

    static String known() {
        List<String> ids = new ArrayList<>();
        for (DlprofReportKind k : values()) ids.add(k.id);
        ids.add("all");
        return String.join(", ", ids);
    }
}
