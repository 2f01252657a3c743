package dlproflint.engine.catalog;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The annotations of a compiled pack's rules, stored beside its kjar ({@code <key>.catalog}, same
 * content key), so listing and explaining rules, {@code --version} and the checks of a run configuration
 * need no rule engine. Only what the compiler read from the DRL is stored: the catalogue entries are
 * rebuilt from it by {@link RuleCatalog} each time, so the annotations stay the single source of truth and
 * a change in how they are interpreted never meets a stale file. A small binary format: nothing to parse
 * beyond lengths and UTF-8.
 */
public final class CatalogFile {
    private static final int MAGIC = 0x444c5243; // "DLRC"
    private static final int FORMAT = 1;

    private CatalogFile() {
    }

    public static byte[] write(List<RuleAnnotations> rules) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(FORMAT);
            out.writeInt(rules.size());
            for (RuleAnnotations r : rules) {
                string(out, r.packageName());
                string(out, r.ruleName());
                Map<String, String> sorted = new TreeMap<>(r.values());
                out.writeInt(sorted.size());
                for (Map.Entry<String, String> e : sorted.entrySet()) {
                    string(out, e.getKey());
                    string(out, e.getValue());
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e); // a byte array stream does not fail
        }
        return bytes.toByteArray();
    }

    /** @throws IOException when the bytes are not a catalogue of this format (the caller then compiles) */
    public static List<RuleAnnotations> read(byte[] data) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            if (in.readInt() != MAGIC || in.readInt() != FORMAT) throw new IOException("not a rule catalogue of format " + FORMAT);
            int n = count(in, data.length);
            List<RuleAnnotations> rules = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                String pkg = string(in, data.length);
                String name = string(in, data.length);
                int m = count(in, data.length);
                Map<String, String> values = new TreeMap<>();
                for (int j = 0; j < m; j++) values.put(string(in, data.length), string(in, data.length));
                rules.add(new RuleAnnotations(pkg, name, values));
            }
            if (in.read() >= 0) throw new IOException("trailing bytes after the rule catalogue");
            return rules;
        }
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static int count(DataInputStream in, int limit) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > limit) throw new IOException("corrupt rule catalogue");
        return n;
    }

    private static String string(DataInputStream in, int limit) throws IOException {
        byte[] b = new byte[count(in, limit)];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
