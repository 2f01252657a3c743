package dlproflint.extract.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What the names of ranges and ops say about training steps: framework step markers, the training-loop
 * landmarks iterations can be inferred from, numbered range families ({@code step 12}, {@code iter_5}:
 * the same name with a counter), and which names a key node stands for.
 */
public final class StepNames {
    /** The PyTorch profiler's step marker ({@code prof.step()} wraps each step in {@code ProfilerStep#<n>}). */
    public static final String PROFILER_STEP_FAMILY = "ProfilerStep#N";
    /** Most digit runs of one name that are tried as a counter. */
    private static final int MAX_COUNTERS = 3;
    private static final int MAX_NAME = 200;
    private static final Pattern HINT = Pattern.compile("(?i)(^|[^a-z])(step|steps|iter|iters|iteration|iterations|batch)([^a-z]|$)");
    private static final Pattern STRONG_HINT = Pattern.compile("(?i)(^|[^a-z])(step|steps|iter|iters|iteration|iterations)([^a-z]|$)");
    private static final Pattern KEY_SUFFIX = Pattern.compile("[#_ .:\\-=]*\\d+");

    private StepNames() {
    }

    /** {@code ProfilerStep#12}. */
    public static boolean profilerStep(String name) {
        return name != null && name.startsWith("ProfilerStep#") && name.length() > 13 && digits(name, 13, name.length());
    }

    /** PyTorch DataLoader / DataPipe iteration ({@code enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__}). */
    public static boolean dataLoaderNext(String name) {
        return name != null && (name.startsWith("enumerate(DataLoader)#") || name.startsWith("enumerate(DataPipe)#"));
    }

    /** {@code Optimizer.step#SGD.step} (PyTorch's record_function around every optimizer step). */
    public static boolean optimizerStep(String name) {
        return name != null && (name.startsWith("Optimizer.step#") || name.equals("Optimizer.step"));
    }

    /**
     * A name that says it counts steps: {@code iter_N}, {@code step N}, {@code batch_N} (not optimizer steps or
     * batch norms). Enough for a numbered family, whose counter says the rest.
     */
    public static boolean stepHint(String name) {
        return hint(name, HINT);
    }

    /**
     * A name that says it is a step by itself: {@code train_step}, {@code iteration}. A repeated range needs
     * this stronger word ({@code load_batch} or {@code ..._batch} ops run once per step without being one).
     */
    public static boolean namedStep(String name) {
        return hint(name, STRONG_HINT);
    }

    private static boolean hint(String name, Pattern p) {
        if (name == null || optimizerStep(name) || dataLoaderNext(name)) return false;
        String l = name.toLowerCase(Locale.ROOT);
        if (l.contains("norm")) return false;
        return p.matcher(l).find();
    }

    /** One reading of a name as a counter family: the name with one digit run replaced by {@code N}, and that run's value. */
    public record Counter(String family, long value) {
    }

    /**
     * Every digit run of the name (at most three) read as a counter: {@code layer_3_token_5} →
     * {@code layer_N_token_5}=3, {@code layer_3_token_N}=5. Bracketed indexes ({@code Linear[2]}) are not counters.
     */
    public static List<Counter> counters(String name) {
        List<Counter> out = new ArrayList<>(1);
        if (name == null || name.length() > MAX_NAME) return out;
        int i = 0;
        int n = name.length();
        while (i < n && out.size() < MAX_COUNTERS) {
            if (!Character.isDigit(name.charAt(i))) {
                i++;
                continue;
            }
            int j = i;
            while (j < n && Character.isDigit(name.charAt(j))) j++;
            // [2] and (2) index a call or a layer (DLProf module paths), they do not count steps
            boolean index = i > 0 && j < n && (name.charAt(i - 1) == '[' && name.charAt(j) == ']'
                    || name.charAt(i - 1) == '(' && name.charAt(j) == ')');
            if (j - i <= 12 && !index) {
                out.add(new Counter(name.substring(0, i) + "N" + name.substring(j), Long.parseLong(name.substring(i, j))));
            }
            i = j;
        }
        return out;
    }

    /**
     * False where {@link #keyMatches} is sure to be false for {@code name} and for every text that begins with its first
     * character: every match but a wildcard and a counter family at the name's start begins with the key's first
     * character (this runs for every range of a trace, mostly to say no).
     */
    public static boolean mayMatch(String key, String name) {
        if (key == null || name == null || key.isEmpty()) return false;
        char first = key.charAt(0);
        return first == '*' || first == 'N' || !name.isEmpty() && name.charAt(0) == first;
    }

    /**
     * Whether a key node names this range or op: the exact name; a family ({@code ProfilerStep} or
     * {@code ProfilerStep#N} matches {@code ProfilerStep#12}, {@code iter} matches {@code iter_5}); or a
     * prefix ending in {@code *}.
     */
    public static boolean keyMatches(String key, String name) {
        if (!mayMatch(key, name)) return false;
        if (key.equals(name)) return true;
        if (key.endsWith("*")) return name.startsWith(key.substring(0, key.length() - 1));
        if (name.startsWith(key) && KEY_SUFFIX.matcher(name).region(key.length(), name.length()).matches()) return true;
        if (key.indexOf('N') >= 0 && name.length() >= key.length() - 1) {
            for (Counter c : counters(name)) if (c.family().equals(key)) return true;
        }
        return false;
    }

    private static boolean digits(String s, int from, int to) {
        for (int i = from; i < to; i++) if (!Character.isDigit(s.charAt(i))) return false;
        return true;
    }
}
