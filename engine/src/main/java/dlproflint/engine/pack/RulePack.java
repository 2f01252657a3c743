package dlproflint.engine.pack;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * A rule pack as read from its source, not yet compiled: the manifest and every file of the pack
 * ({@code *.drl}, {@code *.md}, {@code *.cases.yaml}, {@code pack.yaml}), sorted by path.
 *
 * @param source {@code builtin} for class-path packs, else the directory it was loaded from
 */
public record RulePack(PackManifest manifest, String source, List<PackFile> files) {
    public RulePack {
        files = List.copyOf(files);
    }

    public String id() {
        return manifest.id();
    }

    public String version() {
        return manifest.version();
    }

    public boolean builtin() {
        return PackLoader.BUILTIN.equals(source);
    }

    public List<PackFile> drlFiles() {
        return files.stream().filter(f -> f.path().endsWith(".drl")).toList();
    }

    public List<PackFile> caseFiles() {
        return files.stream().filter(f -> f.path().endsWith(".cases.yaml") || f.path().endsWith(".cases.yml")).toList();
    }

    public Optional<PackFile> file(String path) {
        return files.stream().filter(f -> f.path().equals(path)).findFirst();
    }

    /**
     * Content address of what the compiler sees: the engine's cache salt, the manifest and every DRL
     * file (path and bytes). Help pages and test cases are not part of it: editing them needs no
     * recompile.
     */
    public String compileHash(String salt) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            feed(md, salt.getBytes(StandardCharsets.UTF_8));
            for (PackFile f : files) {
                if (f.path().endsWith(".drl") || f.path().equals(PackManifest.FILE_NAME)) {
                    feed(md, f.path().getBytes(StandardCharsets.UTF_8));
                    feed(md, f.content());
                }
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Length-prefixed, so ("ab","c") and ("a","bc") hash differently. */
    private static void feed(MessageDigest md, byte[] bytes) {
        md.update(java.nio.ByteBuffer.allocate(8).putLong(bytes.length).array());
        md.update(bytes);
    }
}
