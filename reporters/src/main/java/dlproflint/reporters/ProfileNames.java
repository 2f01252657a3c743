package dlproflint.reporters;

import dlproflint.findings.ProfileResult;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Short, unique names for the profiles of one run (SARIF categories, CSV columns): the file name
 * without its profile extension ({@code run1/nsys_profile.sqlite} → {@code nsys_profile}). Two
 * profiles with the same stem (one folder per rank) are told apart by their parent folder, then by
 * position, so every name in a run is distinct.
 */
public final class ProfileNames {
    private static final String[] EXTENSIONS = {".nsys-rep.sqlite", ".sqlite", ".sqlite3", ".db", ".nsys-rep",
            ".qdrep", ".pt.trace.json.gz", ".pt.trace.json", ".json.gz", ".json"};

    private ProfileNames() {
    }

    /** Stems for the results, in the same order. */
    public static List<String> stems(List<ProfileResult> results) {
        List<String> paths = new ArrayList<>();
        for (ProfileResult r : results) paths.add(r.facts().profile().path());
        return uniqueStems(paths);
    }

    /**
     * How a report shown to others titles each profile: its file name ({@code run.sqlite}), with its folder
     * ({@code rank1/run.sqlite}) when two share a name; never the absolute path a CI runner gives it.
     */
    public static List<String> titles(List<ProfileResult> results) {
        List<String> names = new ArrayList<>();
        Map<String, Integer> count = new HashMap<>();
        for (ProfileResult r : results) {
            String n = fileName(r.facts().profile().path() == null ? "profile" : r.facts().profile().path());
            names.add(n);
            count.merge(n, 1, Integer::sum);
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String parent = count.get(names.get(i)) > 1 ? parentName(results.get(i).facts().profile().path()) : null;
            out.add(parent == null ? names.get(i) : parent + "/" + names.get(i));
        }
        return out;
    }

    static List<String> uniqueStems(List<String> paths) {
        List<String> stems = new ArrayList<>();
        Map<String, Integer> count = new HashMap<>();
        for (String p : paths) {
            String s = stem(p);
            stems.add(s);
            count.merge(s, 1, Integer::sum);
        }
        List<String> out = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < stems.size(); i++) {
            String s = stems.get(i);
            if (count.get(s) > 1) {
                String parent = parentName(paths.get(i));
                if (parent != null) s = parent + "-" + s;
            }
            out.add(s);
        }
        // still colliding (same parent folder name): number them in the order given
        Map<String, Integer> again = new HashMap<>();
        for (String s : out) again.merge(s, 1, Integer::sum);
        for (int i = 0; i < out.size(); i++) {
            String s = out.get(i);
            if (again.get(s) > 1) out.set(i, s + "-" + seen.merge(s, 1, Integer::sum));
        }
        return out;
    }

    /** File name without a known profile extension, reduced to {@code [A-Za-z0-9._-]}. */
    public static String stem(String path) {
        if (path == null || path.isBlank()) return "profile";
        String name = fileName(path);
        String lower = name.toLowerCase(Locale.ROOT);
        for (String ext : EXTENSIONS) {
            if (lower.endsWith(ext) && lower.length() > ext.length()) {
                name = name.substring(0, name.length() - ext.length());
                break;
            }
        }
        String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return safe.isEmpty() ? "profile" : safe;
    }

    private static String fileName(String path) {
        String p = path.replace('\\', '/');
        while (p.endsWith("/") && p.length() > 1) p = p.substring(0, p.length() - 1);
        int slash = p.lastIndexOf('/');
        return slash >= 0 ? p.substring(slash + 1) : p;
    }

    private static String parentName(String path) {
        String p = path.replace('\\', '/');
        while (p.endsWith("/") && p.length() > 1) p = p.substring(0, p.length() - 1);
        int slash = p.lastIndexOf('/');
        if (slash <= 0) return null;
        String s = fileName(p.substring(0, slash)).replaceAll("[^A-Za-z0-9._-]", "_");
        return s.isEmpty() || s.equals(".") || s.equals("..") ? null : s;
    }
}
