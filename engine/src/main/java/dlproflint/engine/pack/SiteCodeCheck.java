package dlproflint.engine.pack;

import dlproflint.engine.RuleLoadException;
import dlproflint.engine.catalog.DrlOutline;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The static checks a site pack's DRL passes before anything of it is compiled or run (built-in packs are the tool's
 * own code and are not checked). Two kinds:
 * <ul>
 *   <li><b>Limits</b>, for every site pack: at most {@link #MAX_RULES} rules, {@link #MAX_RULE_CHARS} characters per
 *       rule and brackets nested at most {@link #MAX_NESTING} deep. A rule longer or deeper than that is generated,
 *       not written, and it makes the compiler recurse or allocate without bound.</li>
 *   <li><b>What rule code may use</b>, unless the pack's manifest says {@code trusted: true}: conditions, actions and
 *       functions compute over facts and report findings. They may not end or leave the process ({@code System},
 *       {@code Runtime}, processes), start threads or block, reflect (which reaches everything else), read or write
 *       files, open network connections, allocate memory off the heap, or reach into the engine (the Drools and
 *       dlprof-lint internals). The check reads the code the way the Java compiler will: unicode escapes decoded,
 *       comments and string literals left out.</li>
 * </ul>
 * A violation is a load error naming the file, the line and what was found (exit 2). The checks are textual: they
 * refuse names, not behaviour, so a trusted pack is the way to use any of it on purpose (docs/writing-rules.md).
 */
public final class SiteCodeCheck {
    public static final int MAX_RULES = 1_000;
    public static final int MAX_RULE_CHARS = 32 * 1024;
    public static final int MAX_NESTING = 64;

    private record Forbidden(Pattern pattern, String what) {
    }

    private static final List<Forbidden> FORBIDDEN = List.of(
            forbid("\\bSystem\\b(?!\\s*\\.\\s*(?:nanoTime|currentTimeMillis|lineSeparator|identityHashCode|arraycopy)\\b)",
                    "System (only System.nanoTime, currentTimeMillis, lineSeparator, identityHashCode and arraycopy are allowed):"
                            + " it ends the process, reads the environment and writes to the report's own output"),
            forbid("\\bRuntime\\b", "Runtime: it ends or halts the process and starts programs"),
            forbid("\\b(?:ProcessBuilder|Process|ProcessHandle)\\b", "processes"),
            forbid("\\b(?:Thread|ThreadGroup|ThreadFactory|Executors?|ExecutorService|ForkJoinPool|CompletableFuture|Timer|TimerTask"
                    + "|VirtualThread|StructuredTaskScope)\\b|\\bsynchronized\\b|\\.\\s*(?:wait|notify|notifyAll)\\s*\\(", "threads or blocking"),
            forbid("\\b(?:Class|ClassLoader|Method|Field|Constructor|Proxy|MethodHandles?|MethodType|VarHandle|Unsafe|AccessibleObject"
                    + "|StackWalker|ModuleLayer|Module|Instrumentation|SecurityManager|ServiceLoader|ScriptEngine|ScriptEngineManager"
                    + "|InitialContext|ManagementFactory|MVEL)\\b|\\.\\s*class\\b|\\bgetClass\\s*\\(|\\bforName\\s*\\(", "reflection"),
            forbid("\\b(?:File|Files|Path|Paths|FileSystems?|RandomAccessFile|FileChannel|FileInputStream|FileOutputStream|FileReader"
                    + "|FileWriter|PrintWriter|PrintStream|InputStream|OutputStream|Reader|Writer|BufferedReader|BufferedWriter|Scanner"
                    + "|ObjectInputStream|ObjectOutputStream|Console)\\b", "file I/O"),
            forbid("\\b(?:Socket|ServerSocket|DatagramSocket|MulticastSocket|URL|URLConnection|HttpURLConnection|HttpClient|HttpRequest"
                    + "|InetAddress|InetSocketAddress|SocketChannel|ServerSocketChannel|DatagramChannel)\\b", "network I/O"),
            forbid("\\ballocateDirect\\b|\\bMemorySegment\\b|\\bArena\\b", "memory outside the heap"),
            forbid("\\bjava\\s*\\.\\s*(?:io|nio|net|sql|rmi|security|beans|awt|applet|lang\\s*\\.\\s*(?:reflect|invoke|management|instrument|ref|foreign)"
                    + "|util\\s*\\.\\s*(?:concurrent|logging|prefs|jar|spi))\\b", "a Java package for I/O, threads or reflection"),
            forbid("\\b(?:javax|jdk|sun|com\\s*\\.\\s*sun|org\\s*\\.\\s*(?:kie|drools|mvel2))\\s*\\.", "the JDK's or the rule engine's internals"),
            forbid("\\bdlproflint\\s*\\.\\s*(?!facts\\b|findings\\b|packs\\b|engine\\s*\\.\\s*(?:Param|FindingSink|Budget|\\*))",
                    "dlprof-lint's internals (rules may use dlproflint.facts, dlproflint.findings, dlproflint.packs and"
                            + " dlproflint.engine.Param/FindingSink/Budget)"),
            forbid("\\bgetKieRuntime\\s*\\(|\\bgetKieBase\\s*\\(|\\bgetEnvironment\\s*\\(|\\bgetChannels\\s*\\(", "the rule engine's internals"));

    private SiteCodeCheck() {
    }

    private static Forbidden forbid(String regex, String what) {
        return new Forbidden(Pattern.compile(regex), what);
    }

    /** Checks every DRL file of a site pack; built-in packs pass unchecked. */
    public static void check(RulePack pack) throws RuleLoadException {
        if (pack.builtin()) return;
        int rules = 0;
        for (PackFile f : pack.drlFiles()) {
            String code = code(f.text());
            checkNesting(f, code);
            List<DrlOutline.RuleHeader> headers = DrlOutline.of(f).rules();
            rules += headers.size();
            if (rules > MAX_RULES) {
                throw new RuleLoadException(f.origin(), headers.get(headers.size() - 1).line(), "pack " + pack.id() + " has more than "
                        + MAX_RULES + " rules; split it into packs of at most " + MAX_RULES);
            }
            checkRuleSizes(f, headers);
            if (!pack.manifest().isTrusted()) checkCalls(pack, f, code);
        }
    }

    private static void checkCalls(RulePack pack, PackFile f, String code) throws RuleLoadException {
        for (Forbidden x : FORBIDDEN) {
            Matcher m = x.pattern().matcher(code);
            if (m.find()) {
                throw new RuleLoadException(f.origin(), lineAt(code, m.start()), "'" + m.group().strip() + "': site rules may not use "
                        + x.what() + ". Rule code computes over facts and reports findings; a pack that needs more says so with"
                        + " 'trusted: true' in its pack.yaml (see docs/writing-rules.md, 'What site rules may do')"
                        + (pack.id() == null ? "" : " [pack " + pack.id() + "]"));
            }
        }
    }

    private static void checkNesting(PackFile f, String code) throws RuleLoadException {
        int depth = 0;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '(' || c == '[' || c == '{') {
                if (++depth > MAX_NESTING) {
                    throw new RuleLoadException(f.origin(), lineAt(code, i), "brackets nested more than " + MAX_NESTING
                            + " deep; write the condition in steps (a function, or several patterns)");
                }
            } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
                depth--;
            }
        }
    }

    private static void checkRuleSizes(PackFile f, List<DrlOutline.RuleHeader> headers) throws RuleLoadException {
        String[] lines = f.text().split("\n", -1);
        for (int r = 0; r < headers.size(); r++) {
            int from = headers.get(r).line() - 1;
            int to = r + 1 < headers.size() ? headers.get(r + 1).line() - 1 : lines.length;
            long chars = 0;
            for (int i = from; i < to; i++) chars += lines[i].length() + 1;
            if (chars > MAX_RULE_CHARS) {
                throw new RuleLoadException(f.origin(), from + 1, "rule \"" + headers.get(r).name() + "\" is " + chars
                        + " characters long; at most " + MAX_RULE_CHARS + " per rule are compiled (move the computation into a function"
                        + " or split the rule)");
            }
        }
    }

    private static int lineAt(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset && i < text.length(); i++) if (text.charAt(i) == '\n') line++;
        return line;
    }

    /**
     * The text as the Java compiler sees its code: {@code \\uXXXX} escapes decoded (javac decodes them before it
     * tokenizes, so {@code \\u0053ystem} is {@code System}), comments removed and string, text-block and character
     * literals blanked; line breaks kept, so offsets map to the same lines.
     */
    static String code(String drl) {
        String s = decodeUnicodeEscapes(drl);
        StringBuilder out = new StringBuilder(s.length());
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
                while (i < n && s.charAt(i) != '\n') i++;
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                blank(s, i, end, out);
                out.append(' ');
                i = end;
            } else if (s.startsWith("\"\"\"", i)) {
                int end = s.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end + 3;
                out.append('"');
                blank(s, i + 1, end - 1, out);
                out.append('"');
                i = end;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && s.charAt(j) != c && s.charAt(j) != '\n') j += s.charAt(j) == '\\' ? 2 : 1;
                int end = Math.min(n, j + 1);
                out.append(c);
                blank(s, i + 1, Math.max(i + 1, end - 1), out);
                if (end > i + 1) out.append(c);
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static void blank(String s, int from, int to, StringBuilder out) {
        for (int k = from; k < to && k < s.length(); k++) out.append(s.charAt(k) == '\n' ? '\n' : ' ');
    }

    /** Java's unicode escapes: a backslash (not itself escaped), one or more {@code u}, four hex digits. */
    static String decodeUnicodeEscapes(String s) {
        if (s.indexOf("\\u") < 0) return s;
        StringBuilder out = new StringBuilder(s.length());
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                int backslashes = 0;
                for (int k = i - 1; k >= 0 && s.charAt(k) == '\\'; k--) backslashes++;
                if (backslashes % 2 == 0) {
                    int j = i + 1;
                    while (j < n && s.charAt(j) == 'u') j++;
                    if (j > i + 1 && j + 4 <= n && s.substring(j, j + 4).matches("[0-9a-fA-F]{4}")) {
                        out.append((char) Integer.parseInt(s.substring(j, j + 4), 16));
                        i = j + 3;
                        continue;
                    }
                }
            }
            out.append(c);
        }
        return out.toString();
    }
}
