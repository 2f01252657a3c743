package dlproflint.extract.kernels;

import java.util.TreeSet;

/**
 * Kernel time by what the catalogue knows, gathered while a reader streams launches, so a profile
 * can say how much of its kernel time the catalogue did not recognise instead of guessing: that time
 * is counted as non-tensor-core work. Holds the distinct unknown names only (a profile has few).
 */
public final class KernelMix {
    private static final int MAX_NAMES = 10_000;
    private static final int EXAMPLES = 3;

    private long totalNs;
    private long unknownNs;
    private final TreeSet<String> unknownNames = new TreeSet<>();
    private boolean namesTruncated;

    public void add(String name, KernelClass c, long durationNs) {
        long d = Math.max(0, durationNs);
        totalNs += d;
        if (c.known()) return;
        unknownNs += d;
        if (unknownNames.size() < MAX_NAMES) unknownNames.add(name == null ? "(unnamed)" : name);
        else namesTruncated = true;
    }

    public long totalNs() {
        return totalNs;
    }

    public long unknownNs() {
        return unknownNs;
    }

    public int unknownNames() {
        return unknownNames.size();
    }

    /** Warning code for {@link #warning()}. */
    public static final String WARNING_CODE = "unknown-kernels";

    /**
     * One sentence for the facts' warnings, or null when every kernel was recognised: how many names,
     * their share of kernel time (0-100 %: a part of the total it is added to) and a few examples.
     */
    public String warning() {
        if (unknownNames.isEmpty()) return null;
        StringBuilder ex = new StringBuilder();
        int i = 0;
        for (String n : unknownNames) {
            if (i++ == EXAMPLES) break;
            if (ex.length() > 0) ex.append(", ");
            ex.append(n.length() > 80 ? n.substring(0, 77) + "..." : n);
        }
        double share = dlproflint.facts.Percent.of(unknownNs, totalNs); // unknown time is part of the total
        int n = unknownNames.size();
        return n + (namesTruncated ? "+" : "") + " kernel name" + (n == 1 ? " is" : "s are") + " not in the kernel catalogue ("
                + String.format(java.util.Locale.ROOT, "%.1f", share) + "% of kernel time, e.g. " + ex
                + "): their tensor-core use and precision are unknown and they count as non-tensor-core time";
    }
}
