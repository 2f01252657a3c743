package dlproflint.engine.catalog;

import dlproflint.engine.pack.PackFile;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where each rule of a DRL file starts: package, rule name and 1-based line. The compiled KieBase
 * knows rules by package and name but not by file; this outline maps them back, so metadata errors
 * and help pages can name the right file. A light line scan is enough: the file has already
 * compiled (or is about to be compiled) by Drools, which reports real syntax errors itself.
 */
public record DrlOutline(PackFile file, String packageName, List<RuleHeader> rules) {
    public record RuleHeader(String name, int line) {
    }

    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;?");
    private static final Pattern RULE = Pattern.compile("^\\s*rule\\s+(?:\"((?:[^\"\\\\]|\\\\.)*)\"|'((?:[^'\\\\]|\\\\.)*)'|([^\\s\"']+))");

    public static DrlOutline of(PackFile file) {
        String pkg = "";
        List<RuleHeader> rules = new ArrayList<>();
        String[] lines = file.text().split("\n", -1);
        boolean inBlockComment = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (inBlockComment) {
                int end = line.indexOf("*/");
                if (end < 0) continue;
                line = line.substring(end + 2);
                inBlockComment = false;
            }
            int start = line.indexOf("/*");
            if (start >= 0 && line.indexOf("*/", start) < 0) {
                inBlockComment = true;
                line = line.substring(0, start);
            }
            Matcher p = PACKAGE.matcher(line);
            if (p.find() && pkg.isEmpty()) {
                pkg = p.group(1);
                continue;
            }
            Matcher r = RULE.matcher(line);
            if (r.find()) {
                String name = r.group(1) != null ? r.group(1) : r.group(2) != null ? r.group(2) : r.group(3);
                rules.add(new RuleHeader(name, i + 1));
            }
        }
        return new DrlOutline(file, pkg, List.copyOf(rules));
    }
}
