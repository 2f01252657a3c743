package dlproflint.extract.kernels;

import dlproflint.facts.CollectiveKind;
import dlproflint.facts.KernelKind;
import dlproflint.facts.Precision;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Classifies GPU kernels by name: family, precision, tensor-core use and the lowest GPU generation the
 * kernel runs on. The knowledge is data, not code: {@code kernel-catalogue.tsv} (ordered name patterns;
 * the first one found in the name wins) and {@code kernel-precision-tokens.tsv} (type tokens for
 * entries whose precision is read from the name), both beside this class. Every reader classifies
 * through {@link #builtin()}; a name no entry matches is {@link KernelClass#UNKNOWN}: not guessed,
 * counted as non-tensor-core work and reported as unrecognised.
 */
public final class KernelCatalogue {
    static final String CATALOGUE = "kernel-catalogue.tsv";
    static final String TOKENS = "kernel-precision-tokens.tsv";
    /** Longest name prefix searched: real demangled names stay far below it; a hostile 10 MB name must not cost seconds. */
    private static final int MAX_NAME_CHARS = 1 << 16;
    /** Kernel names are few per profile; the cache is cleared rather than allowed to grow without bound. */
    private static final int MAX_CACHED = 100_000;
    private static final Pattern SM_NUMBER = Pattern.compile("(?:sm|Sm|SM)_?(\\d{2,3})(?!\\d)|cutlass_(\\d{2,3})_"
            + "|(?:^|_)(maxwell|pascal|volta|turing|ampere|ada|hopper|blackwell)_");
    /** cuBLAS/cuDNN/TensorRT name kernels after the generation they were built for */
    private static final Map<String, int[]> ARCH = Map.of("maxwell", new int[] {5, 0}, "pascal", new int[] {6, 0},
            "volta", new int[] {7, 0}, "turing", new int[] {7, 5}, "ampere", new int[] {8, 0}, "ada", new int[] {8, 9},
            "hopper", new int[] {9, 0}, "blackwell", new int[] {10, 0});

    private static volatile KernelCatalogue builtin;

    private final List<CatalogueEntry> entries;
    private final List<Map.Entry<Precision, Pattern>> tokens;
    private final Map<String, KernelClass> cache = new ConcurrentHashMap<>();

    private KernelCatalogue(List<CatalogueEntry> entries, List<Map.Entry<Precision, Pattern>> tokens) {
        this.entries = List.copyOf(entries);
        this.tokens = List.copyOf(tokens);
    }

    /** The catalogue shipped with dlprof-lint (loaded once). */
    public static KernelCatalogue builtin() {
        KernelCatalogue c = builtin;
        if (c == null) {
            synchronized (KernelCatalogue.class) {
                if (builtin == null) builtin = parse(resourceLines(CATALOGUE), resourceLines(TOKENS));
                c = builtin;
            }
        }
        return c;
    }

    /**
     * A catalogue from its two files' lines.
     *
     * @throws IllegalArgumentException naming the file line that is malformed
     */
    public static KernelCatalogue parse(List<String> catalogueLines, List<String> tokenLines) {
        List<Map.Entry<Precision, Pattern>> tokens = new ArrayList<>();
        for (int i = 0; i < tokenLines.size(); i++) {
            String l = tokenLines.get(i);
            if (skip(l)) continue;
            String[] f = l.split("\t", -1);
            if (f.length != 2) throw bad(TOKENS, i, "expected 2 tab-separated columns, found " + f.length);
            Precision p = Precision.ofLabel(f[0]);
            if (p == null) throw bad(TOKENS, i, "unknown precision '" + f[0] + "'");
            tokens.add(Map.entry(p, compile(TOKENS, i, f[1])));
        }
        List<CatalogueEntry> entries = new ArrayList<>();
        for (int i = 0; i < catalogueLines.size(); i++) {
            String l = catalogueLines.get(i);
            if (skip(l)) continue;
            entries.add(entry(i, l.split("\t", -1)));
        }
        return new KernelCatalogue(entries, tokens);
    }

    private static CatalogueEntry entry(int i, String[] f) {
        if (f.length != 7) throw bad(CATALOGUE, i, "expected 7 tab-separated columns, found " + f.length);
        Pattern pattern = compile(CATALOGUE, i, f[0]);
        String family = f[1].trim();
        if (family.isEmpty()) throw bad(CATALOGUE, i, "empty family");
        String prec = f[2].trim().toLowerCase(Locale.ROOT);
        Precision fixed = null;
        Precision fallback = null;
        boolean auto = false;
        if (prec.equals("auto") || prec.startsWith("auto:")) {
            auto = true;
            if (prec.startsWith("auto:")) {
                fallback = Precision.ofLabel(prec.substring(5));
                if (fallback == null) throw bad(CATALOGUE, i, "unknown precision '" + prec.substring(5) + "'");
            }
        } else if (!prec.equals("none")) {
            fixed = Precision.ofLabel(prec);
            if (fixed == null) throw bad(CATALOGUE, i, "unknown precision '" + f[2] + "'");
        }
        boolean tc = switch (f[3].trim().toLowerCase(Locale.ROOT)) {
            case "yes" -> true;
            case "no" -> false;
            default -> throw bad(CATALOGUE, i, "tensor_cores must be yes or no, not '" + f[3] + "'");
        };
        String cc = f[4].trim();
        boolean fromName = cc.equals("name");
        int major = -1;
        int minor = -1;
        if (!fromName && !cc.equals("-")) {
            Matcher m = Pattern.compile("(\\d+)\\.(\\d)").matcher(cc);
            if (!m.matches()) throw bad(CATALOGUE, i, "min_cc must be N.N, name or -, not '" + cc + "'");
            major = Integer.parseInt(m.group(1));
            minor = Integer.parseInt(m.group(2));
        }
        if (f[5].isBlank() || f[6].isBlank()) throw bad(CATALOGUE, i, "every entry names its source and an example");
        return new CatalogueEntry(i + 1, pattern, family, fixed, auto, fallback, tc, fromName, major, minor,
                f[5].trim(), f[6].trim());
    }

    private static boolean skip(String l) {
        return l.isBlank() || l.startsWith("#");
    }

    private static Pattern compile(String file, int i, String regex) {
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw bad(file, i, "bad pattern: " + e.getDescription());
        }
    }

    private static IllegalArgumentException bad(String file, int i, String what) {
        return new IllegalArgumentException(file + " line " + (i + 1) + ": " + what);
    }

    private static List<String> resourceLines(String name) {
        try (InputStream in = KernelCatalogue.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("kernel catalogue resource " + name + " missing from the class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<CatalogueEntry> entries() {
        return entries;
    }

    /** The class of one kernel name (demangled or mangled, short or long). */
    public KernelClass classify(String name) {
        if (name == null || name.isEmpty()) return KernelClass.UNKNOWN;
        KernelClass c = cache.get(name);
        if (c != null) return c;
        if (cache.size() > MAX_CACHED) cache.clear();
        String n = name.length() > MAX_NAME_CHARS ? name.substring(0, MAX_NAME_CHARS) : name;
        c = lookup(n);
        c = c.withKind(kind(c.family(), n, null));
        cache.put(name, c);
        return c;
    }

    /**
     * A kernel known by two names (nsys and DLProf keep a short and a demangled one): the long name
     * says more (template arguments), the short one is the fallback; its kind is read from both.
     */
    public KernelClass classify(String shortName, String longName) {
        KernelClass c = classify(longName);
        if (!c.known() && shortName != null && !shortName.equals(longName)) c = classify(shortName);
        if (shortName == null || longName == null || shortName.equals(longName)) return c;
        return c.withKind(kind(c.family(), shortName, longName));
    }

    /** Attention kernels by their catalogue family. */
    private static final java.util.Set<String> ATTENTION_FAMILIES = java.util.Set.of("flash-attention-2", "flash-attention-3",
            "mem-efficient-attention", "cudnn-sdpa", "trtllm-fmha", "flashinfer-attention");
    /** cuDNN's convolutions (its GEMM-based algorithms too: {@code implicit_convolve_sgemm}, {@code xmma_fprop_implicit_gemm}). */
    private static final Pattern CONV = Pattern.compile("(?i)conv|cudnn|fprop|dgrad|wgrad|winograd|fft2d");
    /**
     * GEMMs and GEMVs of cuBLAS, cuBLASLt, CUTLASS ({@code ampere_sgemm_*}, {@code gemmSN_TN_kernel},
     * {@code cutlass::Kernel<cutlass_80_tensorop_s1688gemm_*>}, {@code sm80_xmma_gemm_*}, {@code nvjet_*}); a CUTLASS
     * kernel's short name is just {@code Kernel}, so the long name is searched too.
     */
    private static final Pattern GEMM = Pattern.compile("(?i)gemm|gemv|xmma|nvjet|scudnn|hcudnn");

    /**
     * What a kernel computes, from its catalogue family and names: communication (what {@link CollectiveKind} says),
     * attention (by family), convolution, GEMM, or other. FBGEMM's embedding kernels ({@code fbgemm_gpu::...}) are
     * not GEMMs despite the library's name.
     */
    static KernelKind kind(String family, String name, String otherName) {
        name = prefix(name);
        otherName = otherName == null ? null : prefix(otherName);
        if (CollectiveKind.isCommunication(name) || otherName != null && CollectiveKind.isCommunication(otherName)) {
            return KernelKind.COMMUNICATION;
        }
        if (family != null && ATTENTION_FAMILIES.contains(family)) return KernelKind.ATTENTION;
        String n = (otherName == null ? name : name + " " + otherName).replace("fbgemm", "");
        if (CONV.matcher(n).find()) return KernelKind.CONV;
        if (GEMM.matcher(n).find()) return KernelKind.GEMM;
        return KernelKind.OTHER;
    }

    /** The part of a name the classifier reads (a hostile 10 MB name must not cost seconds). */
    private static String prefix(String name) {
        return name.length() > MAX_NAME_CHARS ? name.substring(0, MAX_NAME_CHARS) : name;
    }

    /** The entry that classifies {@code name}, or null. */
    public CatalogueEntry entryFor(String name) {
        if (name == null) return null;
        String n = name.length() > MAX_NAME_CHARS ? name.substring(0, MAX_NAME_CHARS) : name;
        for (CatalogueEntry e : entries) {
            if (e.pattern().matcher(n).find()) return e;
        }
        return null;
    }

    private KernelClass lookup(String name) {
        CatalogueEntry e = entryFor(name);
        if (e == null) return KernelClass.UNKNOWN;
        Precision p = e.precision();
        if (e.autoPrecision()) {
            p = tokenPrecision(name);
            if (p == null) p = e.fallback();
        }
        int major = e.minMajor();
        int minor = e.minMinor();
        if (e.minCcFromName()) {
            Matcher m = SM_NUMBER.matcher(name);
            if (m.find()) {
                if (m.group(3) != null) {
                    int[] a = ARCH.get(m.group(3));
                    major = a[0];
                    minor = a[1];
                } else {
                    String digits = m.group(1) != null ? m.group(1) : m.group(2);
                    major = Integer.parseInt(digits.substring(0, digits.length() - 1));
                    minor = digits.charAt(digits.length() - 1) - '0';
                }
            }
        }
        return new KernelClass(e.family(), p, e.tensorCores(), major, minor, KernelKind.OTHER);
    }

    /** The first precision with a type token in the name (narrowest operand types are listed first). */
    Precision tokenPrecision(String name) {
        for (Map.Entry<Precision, Pattern> t : tokens) {
            if (t.getValue().matcher(name).find()) return t.getKey();
        }
        return null;
    }
}
