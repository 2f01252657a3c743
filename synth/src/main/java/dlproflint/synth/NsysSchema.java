package dlproflint.synth;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The nsys export schemas the generator can write. The DDL is the real exporter's, copied from corpus files
 * into {@code synth/src/main/resources/dlproflint/synth/nsys-*-schema.sql}, this module's own resources, not the shipped reader's jar (each file's header names its source), so a
 * reader sees exactly the column layout, order, NULL-ability and comments a real export has.
 */
public enum NsysSchema {
    /** nsys 2022.1.3 (schema 2.9.1): {@code EXPORT_META_DATA}, no {@code ENUM_*} tables, {@code TARGET_INFO_CUDA_NULL_STREAM}. */
    NSYS_2022_1("nsys-2022.1-schema.sql", "2022.1.3.3", "2.9.1", "EXPORT_META_DATA", false),
    /** nsys 2025.5.2 (schema 3.24.0): {@code META_DATA_EXPORT}, {@code ENUM_*} tables, {@code greenContextId} columns. */
    NSYS_2025_5("nsys-2025.5-schema.sql", "2025.5.2.266", "3.24.0", "META_DATA_EXPORT", true);

    private static final Pattern CREATE = Pattern.compile("^CREATE TABLE (\\w+)");

    private final String resource;
    private final String productVersion;
    private final String schemaVersion;
    private final String metaTable;
    private final boolean modern;

    NsysSchema(String resource, String productVersion, String schemaVersion, String metaTable, boolean modern) {
        this.resource = resource;
        this.productVersion = productVersion;
        this.schemaVersion = schemaVersion;
        this.metaTable = metaTable;
        this.modern = modern;
    }

    public String productVersion() { return productVersion; }
    public String schemaVersion() { return schemaVersion; }
    /** {@code EXPORT_META_DATA} (≤2023.2) or {@code META_DATA_EXPORT} (≥2023.3). */
    public String metaTable() { return metaTable; }
    /** 2023.4+ layout: green contexts, {@code TARGET_INFO_CUDA_CONTEXT_INFO}, {@code ENUM_*}, {@code META_DATA_CAPTURE}. */
    public boolean modern() { return modern; }

    /** {@code CREATE TABLE} statement per table name, in the exporter's order. */
    public Map<String, String> tables() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String stmt : statements()) {
            Matcher m = CREATE.matcher(stmt);
            if (m.find()) out.put(m.group(1), stmt);
        }
        return out;
    }

    /** The rows of the {@code ENUM_*} tables ({@code INSERT} statements), empty for schemas without them. */
    public List<String> enumRows() {
        return statements().stream().filter(s -> s.startsWith("INSERT")).toList();
    }

    private List<String> statements() {
        String text;
        try (InputStream in = NsysSchema.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("missing resource " + resource);
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // A statement ends at a line ending with ';' (no DDL or comment line of the real exports does).
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (cur.length() == 0 && (line.startsWith("--") || line.isBlank())) continue;
            String trimmed = line.strip();
            if (trimmed.equals(";")) {
                out.add(cur.toString().strip());
                cur.setLength(0);
            } else if (trimmed.endsWith(";") && !trimmed.startsWith("--")) {
                cur.append(line, 0, line.lastIndexOf(';'));
                out.add(cur.toString().strip());
                cur.setLength(0);
            } else {
                cur.append(line).append('\n');
            }
        }
        if (!cur.toString().isBlank()) out.add(cur.toString().strip());
        return out;
    }
}
