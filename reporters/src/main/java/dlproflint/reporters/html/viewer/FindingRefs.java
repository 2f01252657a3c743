package dlproflint.reporters.html.viewer;

import dlproflint.findings.Finding;
import dlproflint.findings.Subject;
import dlproflint.reporters.EvidenceValues;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which table rows each finding is about, both ways: from the finding's subject (an op, a kernel, a GPU, a
 * range of iterations) and from its evidence (values naming an embedded op or kernel, {@code …deviceId(s)}
 * and {@code …iteration} entries). Findings about APIs or the whole profile have no rows.
 */
final class FindingRefs {
    /** The kinds of rows a finding can point at. */
    enum Kind { OP, KERNEL, ITERATION, GPU }

    private static final Pattern RANGE = Pattern.compile("(\\d+)\\s*[-\u2013]\\s*(\\d+)");
    private static final Pattern INT = Pattern.compile("-?\\d+");
    private static final int MAX_VALUES = 200;

    private final RowIndex index;
    private final List<Map<Kind, TreeSet<Integer>>> rowsOf = new ArrayList<>();
    private final Map<Kind, Map<Integer, List<Integer>>> findingsOf = new EnumMap<>(Kind.class);

    FindingRefs(RowIndex index, List<Finding> findings) {
        this.index = index;
        for (Kind k : Kind.values()) findingsOf.put(k, new TreeMap<>());
        for (int i = 0; i < findings.size(); i++) {
            Map<Kind, TreeSet<Integer>> rows = new EnumMap<>(Kind.class);
            for (Kind k : Kind.values()) rows.put(k, new TreeSet<>());
            subject(findings.get(i).subject(), rows);
            Map<String, Object> ev = EvidenceValues.normalize(findings.get(i).evidence());
            for (Map.Entry<String, Object> e : ev.entrySet()) evidence(e.getKey(), e.getValue(), rows, 0);
            rowsOf.add(rows);
            for (Map.Entry<Kind, TreeSet<Integer>> e : rows.entrySet()) {
                for (int r : e.getValue()) findingsOf.get(e.getKey()).computeIfAbsent(r, x -> new ArrayList<>()).add(i);
            }
        }
    }

    /** Rows of {@code kind} finding {@code finding} is about, ascending. */
    TreeSet<Integer> rows(int finding, Kind kind) {
        return rowsOf.get(finding).get(kind);
    }

    /** Findings about row {@code row} of {@code kind}, or null when none (a compact JSON null). */
    int[] findings(Kind kind, int row) {
        List<Integer> f = findingsOf.get(kind).get(row);
        return f == null ? null : f.stream().mapToInt(Integer::intValue).toArray();
    }

    private void subject(Subject s, Map<Kind, TreeSet<Integer>> rows) {
        if (s == null || s.kind() == null) return;
        String key = s.key() == null ? "" : s.key();
        switch (s.kind()) {
            case "op" -> {
                Integer r = index.op(key);
                if (r == null) r = index.op(s.name());
                if (r != null) rows.get(Kind.OP).add(r);
            }
            case "kernel" -> rows.get(Kind.KERNEL).addAll(index.kernelsNamed(key));
            case "gpu" -> device(key, rows);
            case "iterations" -> {
                Matcher m = RANGE.matcher(s.name() == null ? "" : s.name());
                if (m.find()) iterations(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), rows);
            }
            default -> { }
        }
    }

    private void evidence(String key, Object v, Map<Kind, TreeSet<Integer>> rows, int depth) {
        if (v == null || depth > 2) return;
        String k = key.toLowerCase(Locale.ROOT);
        if (v instanceof Collection<?> c) {
            int n = 0;
            for (Object x : c) {
                if (++n > MAX_VALUES) break;
                evidence(key, x, rows, depth + 1);
            }
            return;
        }
        if (k.endsWith("deviceid") || k.endsWith("deviceids")) {
            Matcher m = INT.matcher(String.valueOf(v));
            int n = 0;
            while (m.find() && ++n <= MAX_VALUES) device(m.group(), rows);
            return;
        }
        if (k.endsWith("iteration") && v instanceof Number num) {
            iterations(num.intValue(), num.intValue(), rows);
            return;
        }
        if (v instanceof String s && !s.isEmpty()) {
            Integer op = index.op(s);
            if (op != null) rows.get(Kind.OP).add(op);
            rows.get(Kind.KERNEL).addAll(index.kernelsNamed(s));
        }
    }

    private void device(String id, Map<Kind, TreeSet<Integer>> rows) {
        try {
            Integer r = index.device(Integer.parseInt(id.trim()));
            if (r != null) rows.get(Kind.GPU).add(r);
        } catch (NumberFormatException e) {
            // not a device id: nothing to link
        }
    }

    private void iterations(int from, int to, Map<Kind, TreeSet<Integer>> rows) {
        for (int it = Math.min(from, to); it <= Math.max(from, to); it++) {
            Integer r = index.iteration(it);
            if (r != null) rows.get(Kind.ITERATION).add(r);
        }
    }

    /** Row indexes as the compact list the script reads: runs {@code a-b} and single rows joined by {@code .}. */
    static String spec(TreeSet<Integer> rows) {
        return dlproflint.findings.RankSet.runs(rows, '.');
    }
}
