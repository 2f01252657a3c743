package dlproflint.extract.nsys;

import dlproflint.extract.common.Shapes;
import dlproflint.facts.Direction;
import dlproflint.facts.StackFrame;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What an NVTX message says, by marker style: DLProf PyTorch plugin dict markers ({@code {'traceMarker': ...}}
 * giving the Python stack and {@code funcStack}, {@code {'mod': ..., 'op': ..., 'args': [...]}} giving the op
 * and its tensors), the plugin's {@code {"model_config": {...}}} mark, PyTorch {@code emit_nvtx} ranges
 * ({@code aten::conv2d, seq = 0}, {@code ConvolutionBackward0, seq = 3}), and plain user text.
 */
final class MarkerText {
    enum Kind { DLPROF_OP, TRACE_MARKER, MODEL_CONFIG, ATEN, PLAIN }

    private static final Pattern BACKWARD = Pattern.compile("(?i)(backward\\d*|_backward)$");
    private static final Pattern CALL_INDEX = Pattern.compile("\\((\\d+)\\)(?=/|$)");
    /** A pass's map of parsed op names is emptied when it reaches this many (a bound, whatever the texts). */
    static final int MAX_NAMES = 1 << 16;

    final Kind kind;
    /** null for a {@link #canonical} range until {@link #text()} spells it */
    private String text;
    final boolean registered;
    /** op name (plain/aten text, or DLProf-style module path for trace markers) */
    String name;
    String type;
    Direction direction = Direction.NA;
    String dataType;
    String inputShapes;
    List<StackFrame> stack = List.of();
    Map<?, ?> modelConfig;
    long seq = -1;
    /**
     * The parse of its name that an emit_nvtx range's was made from ({@link #of(String, boolean, Map)}), null for
     * others; the spool keeps it by {@link #spoolId} so that a later pass makes the range again without parsing.
     */
    MarkerText named;
    /** this name parse's index in the spool that holds it ({@link NvtxSpool}); -1 until it holds it */
    int spoolId = -1;

    private MarkerText(Kind kind, String text, boolean registered) {
        this.kind = kind;
        this.text = text;
        this.registered = registered;
    }

    /** The event's text as it was recorded. */
    String text() {
        if (text == null) {
            if (shape()) throw new IllegalStateException("a canonical range's shared shape has no number: spell its text with the row's");
            text = canonicalText(named.name, seq);
        }
        return text;
    }

    /**
     * What every canonical range of this name parse and classification reads as, but its number (its {@link #seq} is
     * -1, its {@link #text} not to be asked for): one object a name and flags, where {@link #ofCanonical} makes one a
     * range (a million on a 1M-launch export, a third of what its passes allocated). The reader keeps each range's
     * number beside it ({@link NvtxSpool.Row#seqOf}) and makes the range's own with {@link #withSeq} where it keeps one.
     */
    MarkerText canonicalShape(int flags) {
        if (shapes == null) shapes = new MarkerText[CATEGORIES + 1];
        int k = flags & CATEGORIES;
        MarkerText shape = shapes[k];
        if (shape == null) shapes[k] = shape = ofCanonical(this, -1).withFlags(k);
        return shape;
    }

    /** A canonical range's own parse: its shape's ({@link #canonicalShape}) with its number. */
    MarkerText withSeq(long number) {
        if (!shape()) return this;
        return ofCanonical(named, number).withFlags(flags());
    }

    /** this name parse's shapes by flags ({@link #canonicalShape}), made when first asked for */
    private MarkerText[] shapes;

    /** A shape: canonical without a number (a canonical range's own number is its digits, never negative). */
    private boolean shape() {
        return canonical && seq < 0;
    }

    /**
     * Whether the text is {@code <name>, seq = <number>} spelt exactly so ({@link #canonicalText}): a pass that keeps
     * the range keeps its name's parse and number, not its text ({@link NvtxSpool}).
     */
    boolean canonical() {
        return canonical;
    }

    private boolean canonical;

    /** The common emit_nvtx text of an op and its sequence number, as PyTorch writes it. */
    static String canonicalText(String name, long seq) {
        return name + EmitNvtxNames.SEQ + seq;
    }

    /**
     * An emit_nvtx op range whose text is {@code <named's name>, seq = <seq>} ({@link #canonicalText}): what
     * {@link #of(String, boolean, Map)} makes of that text, its flags the name's (the number's part holds none of the
     * classifications' patterns), the text itself spelt only if asked for.
     */
    static MarkerText ofCanonical(MarkerText named, long seq) {
        MarkerText mt = ofNamed(named, null, null, false, seq);
        mt.canonical = true;
        mt.flags = named.flags();
        return mt;
    }
    static MarkerText of(String text, boolean registered) {
        return of(text, registered, null);
    }

    /**
     * Parses emit_nvtx texts once per op name: {@code aten::conv2d, seq = 17} and {@code aten::conv2d, seq = 18} differ
     * only in their number, so what the name makes of them (kind, name, type, direction, and the classification of that
     * part of the text) is kept in {@code byName} (a pass's own map; null for none) and only the rest is read per range.
     */
    static MarkerText of(String text, boolean registered, Map<String, MarkerText> byName) {
        if (text == null) text = "";
        String t = text.trim();
        if (t.startsWith("{")) {
            try {
                Object parsed = PyLiteral.parse(t);
                if (parsed instanceof Map<?, ?> m) {
                    if (m.containsKey("model_config")) {
                        MarkerText mt = new MarkerText(Kind.MODEL_CONFIG, text, registered);
                        mt.modelConfig = m.get("model_config") instanceof Map<?, ?> c ? c : Map.of();
                        return mt;
                    }
                    if (m.containsKey("traceMarker")) return traceMarker(text, registered, m);
                    if (m.containsKey("op")) return dlprofOp(text, registered, m);
                }
            } catch (IllegalArgumentException e) {
                // not a literal: fall through to plain text
            }
        }
        // emit_nvtx suffix ", seq = N" (PyTorch 1.0-1.4 backward: ", stashed seq = N"), before any
        // ", op_id = ..." / ", sizes = [...]", parsed by hand: this runs once per range, millions of times
        long seq = -1;
        String base = t;
        int at = seqSuffix(t);
        if (at > 0) {
            int eq = t.indexOf('=', at);
            if (eq > 0) {
                int n = t.length();
                int d = eq + 1;
                while (d < n && t.charAt(d) == ' ') d++;
                int e = d;
                long v = 0;
                char c;
                // ASCII digits only: PyTorch writes the number with them
                while (e < n && (c = t.charAt(e)) >= '0' && c <= '9' && e - d < 18) {
                    v = v * 10 + (c - '0');
                    e++;
                }
                if (e > d) {
                    seq = v;
                    base = t.substring(0, at).trim();
                }
            }
        }
        // the name's part (the text before its ", seq"), parsed once per name: a text without leading blanks, so the
        // classification's prefix checks see the same first characters in the name as in the text
        boolean cached = byName != null && seq >= 0 && !text.isEmpty() && text.charAt(0) > ' ';
        if (cached) {
            MarkerText named = byName.get(base);
            if (named == null) {
                if (byName.size() >= MAX_NAMES) byName.clear();
                named = ofName(base);
                byName.put(base, named);
            }
            MarkerText mt = ofNamed(named, text, t, registered, seq);
            // no pattern of the classification holds ',' or ' ': a match lies wholly before the ", seq" or after it
            mt.flags = named.flags() | scanFlags(text, at);
            return mt;
        }
        return ofName(base, seq, text, t, registered);
    }

    /**
     * Where the text's sequence number begins: its first {@code ", stashed seq"}, else its first {@code ", seq"},
     * else its first {@code ",seq"}; -1 for none. One pass over the text's commas (a text is searched once, not once
     * per spelling: this runs for every range).
     */
    static int seqSuffix(String t) {
        int spaced = -1;
        int tight = -1;
        for (int c = t.indexOf(','); c >= 0; c = t.indexOf(',', c + 1)) {
            if (t.startsWith(", stashed seq", c)) return c;
            if (spaced < 0 && t.startsWith(", seq", c)) spaced = c;
            else if (tight < 0 && t.startsWith(",seq", c)) tight = c;
        }
        return spaced >= 0 ? spaced : tight;
    }

    /**
     * The emit_nvtx range {@code text} whose name parsed as {@code named}, with sequence number {@code seq}: what
     * {@link #of(String, boolean, Map)} makes of it, but for its flags, which the caller sets (from the name and the
     * rest of the text, or as the pass that parsed it found them, {@link #withFlags}).
     *
     * @param t the text without blanks at its ends (an op that is no ATEN op is named by it)
     */
    static MarkerText ofNamed(MarkerText named, String text, String t, boolean registered, long seq) {
        boolean aten = named.kind == Kind.ATEN;
        MarkerText mt = new MarkerText(named.kind, text, registered);
        mt.named = named;
        mt.name = aten ? named.name : t;
        mt.type = aten ? named.type : t;
        mt.direction = named.direction;
        mt.seq = aten ? seq : -1;
        return mt;
    }

    /** An op name's parse as it would be with a sequence number after it (its text the name alone). */
    private static MarkerText ofName(String base) {
        return ofName(base, 0, base, base, false);
    }

    private static MarkerText ofName(String base, long seq, String text, String t, boolean registered) {
        boolean backward = base.contains("ackward") && BACKWARD.matcher(base).find();
        if (base.startsWith("aten::") || seq >= 0 && (backward || base.contains("::"))) {
            MarkerText mt = new MarkerText(Kind.ATEN, text, registered);
            mt.name = base;
            mt.type = base.startsWith("aten::") ? base.substring(6) : base;
            mt.direction = backward ? Direction.BPROP : Direction.FPROP;
            mt.seq = seq;
            return mt;
        }
        MarkerText mt = new MarkerText(Kind.PLAIN, text, registered);
        mt.name = t;
        mt.type = t;
        return mt;
    }

    private static MarkerText traceMarker(String text, boolean registered, Map<?, ?> m) {
        MarkerText mt = new MarkerText(Kind.TRACE_MARKER, text, registered);
        List<StackFrame> frames = new ArrayList<>();
        if (m.get("traceMarker") instanceof List<?> l) {
            for (Object o : l) {
                String f = String.valueOf(o);
                int c = f.lastIndexOf(':');
                int line = 0;
                String file = f;
                if (c > 0) {
                    try {
                        line = Integer.parseInt(f.substring(c + 1));
                        file = f.substring(0, c);
                    } catch (NumberFormatException e) {
                        file = f;
                    }
                }
                frames.add(new StackFrame(file, line, null));
            }
        }
        // the plugin lists the entry point first; facts hold stacks innermost first
        mt.stack = dlproflint.facts.StackFrames.innermostFirst(frames);
        if (m.get("funcStack") instanceof String fs) mt.name = dlprofOpName(fs);
        return mt;
    }

    /** DLProf prints {@code /<module>/a/b(2)/conv2d} as {@code /module/a/b[2]/conv2d}. */
    static String dlprofOpName(String funcStack) {
        String n = funcStack.replace("<", "").replace(">", "");
        return CALL_INDEX.matcher(n).replaceAll("[$1]");
    }

    private static MarkerText dlprofOp(String text, boolean registered, Map<?, ?> m) {
        MarkerText mt = new MarkerText(Kind.DLPROF_OP, text, registered);
        mt.type = String.valueOf(m.get("op"));
        Object mod = m.get("mod");
        mt.name = (mod == null ? "" : mod + ".") + mt.type;
        mt.direction = Direction.FPROP;
        List<List<Long>> shapes = new ArrayList<>();
        if (m.get("args") instanceof List<?> args) {
            for (Object a : args) {
                if (!(a instanceof Map<?, ?> am)) continue;
                if (mt.dataType == null && am.get("dtype") != null) mt.dataType = String.valueOf(am.get("dtype"));
                if (am.get("shape") instanceof List<?> sh) {
                    List<Long> dims = new ArrayList<>();
                    for (Object d : sh) if (d instanceof Number n) dims.add(n.longValue());
                    shapes.add(dims);
                }
            }
        }
        if (mt.dataType != null) mt.dataType = mt.dataType.replace("torch.", "");
        mt.inputShapes = Shapes.format(mt.type, shapes);
        return mt;
    }

    /** {@link #dataloader()}, {@link #dali()}, {@link #xla()} as bits, found in one pass over the text; -1 until then */
    private int flags = -1;
    static final int DATALOADER = 1;
    static final int DALI = 2;
    static final int XLA = 4;
    /** every classification's bit */
    private static final int CATEGORIES = DATALOADER | DALI | XLA;

    /** {@link #flags(String)} of this text, found once. */
    int flags() {
        if (flags < 0) flags = flags(text());
        return flags;
    }

    /** Takes the text's flags as an earlier pass found them ({@link NvtxSpool}), instead of scanning it again. */
    MarkerText withFlags(int known) {
        flags = known;
        return this;
    }

    /**
     * The classifications every range needs, in one pass over its text without a lower-case copy (this runs for
     * every NVTX row, a million times on a 1M-kernel export): data loading ({@link #dataLoaderText}), DALI
     * ({@code DALI} anywhere, or a text starting with {@code dali} in any case), XLA ({@code xla} anywhere or a
     * text starting with {@code cluster_}, in any case).
     */
    static int flags(String t) {
        int f = 0;
        if (t.regionMatches(true, 0, "dali", 0, 4)) f |= DALI;
        if (t.regionMatches(true, 0, "cluster_", 0, 8)) f |= XLA;
        return f | scanFlags(t, 0);
    }

    /** The classifications found anywhere in {@code t} from {@code from} on (not the prefix checks). */
    private static int scanFlags(String t, int from) {
        int f = 0;
        int n = t.length();
        for (int i = from; i < n; i++) {
            char c = t.charAt(i);
            switch (c) {
                case 'd', 'D' -> {
                    if ((f & DATALOADER) == 0 && (t.regionMatches(true, i, "dataloader", 0, 10)
                            || t.regionMatches(true, i, "data_loader", 0, 11))) f |= DATALOADER;
                    if (c == 'D' && t.startsWith("DALI", i)) f |= DALI;
                }
                case '_' -> {
                    if (t.regionMatches(true, i, "_next_data", 0, 10)) f |= DATALOADER;
                }
                case 'x', 'X' -> {
                    if (t.regionMatches(true, i, "xla", 0, 3)) f |= XLA;
                }
                default -> { }
            }
        }
        return f;
    }

    /** A data-loading range: DLProf's dataloader bucket and the per-step data-loader time. */
    boolean dataloader() {
        return (flags() & DATALOADER) != 0;
    }

    /** Range text that names data loading ({@code enumerate(DataLoader)#...}, {@code _next_data}), in any case. */
    static boolean dataLoaderText(String text) {
        return (flags(text) & DATALOADER) != 0;
    }

    boolean dali() {
        return (flags() & DALI) != 0;
    }

    boolean xla() {
        return (flags() & XLA) != 0;
    }

    /**
     * A pass's parser of NVTX texts: a registered string (StringIds) parsed once by its id, an emit_nvtx text once per
     * op name ({@link #of(String, boolean, Map)}). The evidence pass and the correlation pass each keep one.
     */
    static final class Parser {
        private final NsysDatabase db;
        private final Map<Long, MarkerText> registered = new java.util.HashMap<>();
        private final Map<String, MarkerText> byName = new java.util.HashMap<>();

        Parser(NsysDatabase db) {
            this.db = db;
        }

        private final EmitNvtxNames emitNvtx = new EmitNvtxNames();

        /**
         * {@link #parse(String, boolean, long)} of a text given as its UTF-8 bytes (null: none): the common emit_nvtx
         * spelling is parsed from them, any other text decoded first.
         */
        MarkerText parse(byte[] text, boolean isRegistered, long textId) throws java.sql.SQLException {
            return parse(text, text == null ? 0 : text.length, isRegistered, textId);
        }

        /**
         * As {@link #parse(byte[], boolean, long)}, the text the first {@code length} bytes of {@code text}. Another
         * text than the common emit_nvtx one is parsed once while its parse has no sequence number (a plain name, a
         * step marker, a DLProf plugin literal: the same few texts on every step), then looked up by its bytes.
         */
        MarkerText parse(byte[] text, int length, boolean isRegistered, long textId) throws java.sql.SQLException {
            if (isRegistered || text == null) return parse(text == null ? null : new String(text, 0, length,
                    java.nio.charset.StandardCharsets.UTF_8), isRegistered, textId);
            MarkerText m = emitNvtx.parse(text, length);
            if (m != null) return m;
            int h = SeenTexts.hash(text, length);
            m = seen.get(text, length, h);
            if (m != null) return m;
            m = parse(new String(text, 0, length, java.nio.charset.StandardCharsets.UTF_8), false, 0);
            if (m.seq < 0) seen.put(text, length, h, m);
            return m;
        }

        private final SeenTexts seen = new SeenTexts();

        /**
         * As {@link #parse(byte[], boolean, long)}, an ATEN op's range spelt as PyTorch writes it read as its name's
         * shared shape ({@link MarkerText#canonicalShape}), not an object of its own: its number is {@link #seq()}.
         */
        MarkerText parseShared(byte[] text, boolean isRegistered, long textId) throws java.sql.SQLException {
            if (!isRegistered && text != null) {
                MarkerText named = emitNvtx.name(text, text.length);
                if (named != null) {
                    seq = emitNvtx.seq;
                    return named.canonicalShape(named.flags());
                }
            }
            MarkerText m = parse(text, isRegistered, textId);
            seq = m.seq;
            return m;
        }

        /** The sequence number of the range {@link #parseShared} read last. */
        long seq() {
            return seq;
        }

        private long seq = -1;

        /** The event's text parsed: its own {@code text}, or the registered string {@code textId}. */
        MarkerText parse(String text, boolean isRegistered, long textId) throws java.sql.SQLException {
            if (!isRegistered) {
                MarkerText m = emitNvtx.parse(text);
                return m != null ? m : of(text, false, byName);
            }
            MarkerText m = registered.get(textId);
            if (m == null) registered.put(textId, m = of(db.string(textId), true));
            return m;
        }
    }

    /**
     * Texts parsed already, by their bytes ({@link Parser#parse(byte[], int, boolean, long)}): a fixed table, emptied
     * when half full, of texts up to {@link #MAX_LENGTH} bytes (a trace whose every text differs fills it and starts
     * over, for the cost of the lookups). The parses are shared by the rows of a text, as a registered string's are.
     */
    static final class SeenTexts {
        private static final int SLOTS = 1 << 14;
        static final int MAX_LENGTH = 512;
        private final byte[][] keys = new byte[SLOTS][];
        private final int[] hashes = new int[SLOTS];
        private final MarkerText[] parses = new MarkerText[SLOTS];
        private int size;

        static int hash(byte[] text, int n) {
            int h = 0;
            for (int i = 0; i < n; i++) h = 31 * h + text[i];
            return h;
        }

        MarkerText get(byte[] text, int n, int h) {
            for (int i = (h ^ (h >>> 16)) & (SLOTS - 1); keys[i] != null; i = (i + 1) & (SLOTS - 1)) {
                if (hashes[i] == h && keys[i].length == n && java.util.Arrays.equals(keys[i], 0, n, text, 0, n)) {
                    return parses[i];
                }
            }
            return null;
        }

        void put(byte[] text, int n, int h, MarkerText parse) {
            if (n > MAX_LENGTH) return;
            if (2 * (size + 1) > SLOTS) {
                java.util.Arrays.fill(keys, null);
                java.util.Arrays.fill(parses, null);
                size = 0;
            }
            int i = (h ^ (h >>> 16)) & (SLOTS - 1);
            while (keys[i] != null) i = (i + 1) & (SLOTS - 1);
            keys[i] = java.util.Arrays.copyOf(text, n);
            hashes[i] = h;
            parses[i] = parse;
            size++;
        }
    }

    /**
     * The common emit_nvtx text, {@code <op name>, seq = <number>} (no comma in the name, no blank at either end, the
     * number to the end), parsed in one pass and its name looked up without a substring: what
     * {@link #of(String, boolean, Map)} makes of it, for a fraction of the work (the evidence pass parses every range's
     * text, a million on a 1M-launch export, and this was a quarter of its thread). Any other text gives null, for
     * {@link #of(String, boolean, Map)}.
     */
    static final class EmitNvtxNames {
        static final String SEQ = ", seq = ";
        private static final byte[] SEQ_BYTES = SEQ.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        private String[] keys = new String[1 << 10];
        /** each key's bytes where it is ASCII (null otherwise): the texts read as bytes are looked up by them */
        private byte[][] keyBytes = new byte[1 << 10][];
        private int[] hashes = new int[1 << 10];
        private MarkerText[] parses = new MarkerText[1 << 10];
        private int size;

        MarkerText parse(String text) {
            if (text == null) return null;
            int n = text.length();
            if (n < SEQ.length() + 2 || text.charAt(0) <= ' ' || text.charAt(0) == '{') return null;
            int d = n;
            char c;
            while (d > 0 && (c = text.charAt(d - 1)) >= '0' && c <= '9') d--;
            if (d == n || n - d > 18) return null;
            int at = d - SEQ.length();
            if (at <= 0 || text.charAt(at - 1) <= ' ' || !text.startsWith(SEQ, at)) return null;
            int h = 0;
            for (int i = 0; i < at; i++) {
                c = text.charAt(i);
                if (c == ',') return null; // the first ", seq" would lie in the name: of() decides
                h = 31 * h + c;
            }
            long seq = 0;
            for (int i = d; i < n; i++) seq = seq * 10 + (text.charAt(i) - '0');
            MarkerText named = named(text, null, at, h);
            MarkerText mt = ofNamed(named, text, text, false, seq);
            // the number's part (", seq = " and digits) holds none of the classifications' patterns
            mt.flags = named.flags();
            return mt;
        }

        /**
         * {@link #parse(String)} of a text given as its UTF-8 bytes, for an ATEN op's range spelt exactly as PyTorch
         * writes it ({@link #canonicalText}: ASCII, the number without leading zeros), without making a string of it
         * ({@link #ofCanonical}); null for any other text, which the caller decodes and parses as a string.
         */
        MarkerText parse(byte[] text) {
            return text == null ? null : parse(text, text.length);
        }

        /** {@link #parse(byte[])} of the first {@code n} bytes of {@code text}. */
        MarkerText parse(byte[] text, int n) {
            MarkerText named = name(text, n);
            return named == null ? null : ofCanonical(named, seq);
        }

        /** the number of the text {@link #name} took last */
        long seq;

        /**
         * The name parse of an ATEN op's range spelt exactly as PyTorch writes it (as {@link #parse(byte[], int)}
         * takes it), its number in {@link #seq}; null for any other text.
         */
        MarkerText name(byte[] text, int n) {
            if (text == null) return null;
            // a byte of a multi-byte character is negative: below ' ', so no such text is taken here
            if (n < SEQ_BYTES.length + 2 || text[0] <= ' ' || text[0] == '{') return null;
            int d = n;
            byte c;
            while (d > 0 && (c = text[d - 1]) >= '0' && c <= '9') d--;
            if (d == n || n - d > 18 || text[d] == '0' && n - d > 1) return null;
            int at = d - SEQ_BYTES.length;
            if (at <= 0 || text[at - 1] <= ' '
                    || !java.util.Arrays.equals(text, at, d, SEQ_BYTES, 0, SEQ_BYTES.length)) return null;
            int h = 0;
            for (int i = 0; i < at; i++) {
                c = text[i];
                if (c == ',' || c < 0) return null; // a comma: of() decides; not ASCII: decoded as a string
                h = 31 * h + c;
            }
            long number = 0;
            for (int i = d; i < n; i++) number = number * 10 + (text[i] - '0');
            MarkerText named = named(null, text, at, h);
            // another kind of name is named by the whole text (a string)
            if (named.kind != Kind.ATEN) return null;
            seq = number;
            return named;
        }

        /**
         * The parse of the name {@code text[0, at)} (or {@code bytes[0, at)}, ASCII; hash {@code h}), made and kept
         * the first time.
         */
        private MarkerText named(String text, byte[] bytes, int at, int h) {
            int mask = keys.length - 1;
            int i = mix(h) & mask;
            for (String k; (k = keys[i]) != null; i = (i + 1) & mask) {
                if (hashes[i] != h || k.length() != at) continue;
                if (bytes == null ? text.startsWith(k)
                        : keyBytes[i] != null && java.util.Arrays.equals(keyBytes[i], 0, at, bytes, 0, at)) return parses[i];
            }
            if (size >= MAX_NAMES) {
                java.util.Arrays.fill(keys, null);
                java.util.Arrays.fill(keyBytes, null);
                java.util.Arrays.fill(parses, null);
                size = 0;
                i = mix(h) & mask;
            } else if (2 * (size + 1) > keys.length) {
                grow();
                return named(text, bytes, at, h);
            }
            String name = bytes == null ? text.substring(0, at)
                    : new String(bytes, 0, at, java.nio.charset.StandardCharsets.ISO_8859_1);
            keys[i] = name;
            keyBytes[i] = bytes != null ? java.util.Arrays.copyOf(bytes, at) : ascii(name);
            hashes[i] = h;
            parses[i] = ofName(name);
            size++;
            return parses[i];
        }

        private static byte[] ascii(String name) {
            for (int i = 0; i < name.length(); i++) if (name.charAt(i) >= 0x80) return null;
            return name.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        }

        private void grow() {
            String[] oldKeys = keys;
            byte[][] oldKeyBytes = keyBytes;
            int[] oldHashes = hashes;
            MarkerText[] oldParses = parses;
            keys = new String[oldKeys.length * 2];
            keyBytes = new byte[keys.length][];
            hashes = new int[keys.length];
            parses = new MarkerText[keys.length];
            int mask = keys.length - 1;
            for (int j = 0; j < oldKeys.length; j++) {
                if (oldKeys[j] == null) continue;
                int i = mix(oldHashes[j]) & mask;
                while (keys[i] != null) i = (i + 1) & mask;
                keys[i] = oldKeys[j];
                keyBytes[i] = oldKeyBytes[j];
                hashes[i] = oldHashes[j];
                parses[i] = oldParses[j];
            }
        }

        private static int mix(int h) {
            return h ^ (h >>> 16);
        }
    }
}
