package dlproflint.engine.pack;

import dlproflint.engine.RuleLoadException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Reads rule packs from their two sources.
 * <ul>
 *   <li><b>Built-in</b>: every folder {@code dlproflint/packs/<pack>/} on the class path that holds a
 *       {@code pack.yaml}. Discovery scans the class-path roots that contain {@code dlproflint/packs/}
 *       (a jar's entries, or a directory tree under {@code target/classes}); no index file is needed, so a pack
 *       is shipped by dropping its folder into {@code rules/src/main/resources}. The build writes one
 *       ({@link #INDEX}, by {@link dlproflint.engine.compile.Precompile}) so that a jar that has it is read
 *       without enumerating every entry of the jar it was shaded into (the command's own jar: 12,000 entries).</li>
 *   <li><b>Directory</b> ({@code --rules DIR}): DIR itself is a pack when it holds a {@code pack.yaml};
 *       otherwise each direct sub-folder with a {@code pack.yaml} is one.</li>
 * </ul>
 * Files are read whole (packs are small) and sorted by path, so loading is deterministic.
 */
public final class PackLoader {
    public static final String BUILTIN = "builtin";
    public static final String ROOT = "dlproflint/packs/";
    /**
     * The built-in packs' files, one path under {@link #ROOT} per line, as the build found them: a jar that holds it is
     * read by these names (a class-path directory is always walked: it is what the build itself reads).
     */
    public static final String INDEX = ROOT + "index.txt";

    private PackLoader() {
    }

    /** Packs shipped on the class path, sorted by id. */
    public static List<RulePack> builtin(ClassLoader loader) throws RuleLoadException {
        List<RulePack> packs = new ArrayList<>();
        for (Map<String, PackFile> files : scanBuiltin(loader, rel -> true).values()) {
            PackFile manifest = files.get(PackManifest.FILE_NAME);
            if (manifest == null) continue; // a folder without manifest is not a pack
            packs.add(new RulePack(PackManifest.parse(manifest), BUILTIN, new ArrayList<>(files.values())));
        }
        return packs;
    }

    /**
     * The manifests of the built-in packs, sorted by id, without reading their rules: what
     * {@code --version} needs, at the cost of a few small files instead of a rule compilation.
     */
    public static List<PackManifest> builtinManifests(ClassLoader loader) throws RuleLoadException {
        List<PackManifest> manifests = new ArrayList<>();
        for (Map<String, PackFile> files : scanBuiltin(loader,
                rel -> rel.endsWith("/" + PackManifest.FILE_NAME) && rel.indexOf('/') == rel.lastIndexOf('/')).values()) {
            PackFile manifest = files.get(PackManifest.FILE_NAME);
            if (manifest != null) manifests.add(PackManifest.parse(manifest));
        }
        return manifests;
    }

    /** pack id folder -> (path inside pack -> file) for the class-path files under {@link #ROOT} that {@code wanted} accepts. */
    private static Map<String, Map<String, PackFile>> scanBuiltin(ClassLoader loader, Predicate<String> wanted)
            throws RuleLoadException {
        // TreeMaps keep the order stable
        Map<String, Map<String, PackFile>> byPack = new TreeMap<>();
        try {
            Enumeration<URL> roots = loader.getResources(ROOT.substring(0, ROOT.length() - 1));
            while (roots.hasMoreElements()) {
                URL url = roots.nextElement();
                switch (url.getProtocol()) {
                    case "file" -> scanDirectory(Path.of(url.toURI()), wanted, byPack);
                    case "jar" -> scanJar(url, wanted, byPack);
                    default -> throw new RuleLoadException(url.toString(), 0,
                            "cannot list built-in packs from a '" + url.getProtocol() + "' class-path entry");
                }
            }
        } catch (IOException | URISyntaxException e) {
            throw new RuleLoadException(ROOT, 0, "cannot list built-in packs: " + e.getMessage());
        }
        return byPack;
    }

    private static void scanDirectory(Path packsRoot, Predicate<String> wanted, Map<String, Map<String, PackFile>> byPack)
            throws IOException {
        try (Stream<Path> walk = Files.walk(packsRoot)) {
            for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
                String rel = packsRoot.relativize(p).toString().replace('\\', '/');
                if (wanted.test(rel)) add(byPack, rel, Files.readAllBytes(p));
            }
        }
    }

    private static void scanJar(URL url, Predicate<String> wanted, Map<String, Map<String, PackFile>> byPack)
            throws IOException {
        URLConnection c = url.openConnection();
        if (!(c instanceof JarURLConnection jc)) throw new IOException("not a jar URL: " + url);
        jc.setUseCaches(false);
        try (JarFile jar = jc.getJarFile()) {
            JarEntry index = jar.getJarEntry(INDEX);
            if (index != null) {
                readIndexed(jar, index, wanted, byPack);
                return;
            }
            Enumeration<JarEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                JarEntry e = entries.nextElement();
                if (e.isDirectory() || !e.getName().startsWith(ROOT)) continue;
                String rel = e.getName().substring(ROOT.length());
                if (!wanted.test(rel)) continue;
                try (InputStream in = jar.getInputStream(e)) {
                    add(byPack, rel, in.readAllBytes());
                }
            }
        }
    }

    /** The files {@link #INDEX} lists: a name it lists that the jar lacks is an error (a jar changed after its build). */
    private static void readIndexed(JarFile jar, JarEntry index, Predicate<String> wanted,
                                    Map<String, Map<String, PackFile>> byPack) throws IOException {
        String text;
        try (InputStream in = jar.getInputStream(index)) {
            text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        for (String rel : text.split("\n")) {
            if (rel.isBlank() || rel.startsWith("#") || !wanted.test(rel)) continue;
            JarEntry e = jar.getJarEntry(ROOT + rel);
            if (e == null) throw new IOException(INDEX + " lists " + rel + ", which " + jar.getName() + " does not hold");
            try (InputStream in = jar.getInputStream(e)) {
                add(byPack, rel, in.readAllBytes());
            }
        }
    }

    /**
     * Writes {@link #INDEX} under {@code classesDir} for these packs (build time, after they are read from that
     * directory): every file of every pack, sorted.
     */
    public static Path writeIndex(List<RulePack> packs, Path classesDir) throws IOException {
        List<String> lines = new ArrayList<>();
        for (RulePack p : packs) {
            for (PackFile f : p.files()) {
                if (f.origin().startsWith(ROOT)) lines.add(f.origin().substring(ROOT.length()));
            }
        }
        lines.sort(Comparator.naturalOrder());
        Path out = classesDir.resolve(INDEX);
        Files.createDirectories(out.getParent());
        Files.writeString(out, "# the built-in packs' files, written by the build (dlproflint.engine.compile.Precompile)\n"
                + String.join("\n", lines) + "\n");
        return out;
    }

    private static void add(Map<String, Map<String, PackFile>> byPack, String rel, byte[] bytes) {
        int slash = rel.indexOf('/');
        if (slash <= 0) return; // files directly under dlproflint/packs/ belong to no pack
        String packDir = rel.substring(0, slash);
        String inPack = rel.substring(slash + 1);
        byPack.computeIfAbsent(packDir, k -> new TreeMap<>())
                .putIfAbsent(inPack, new PackFile(inPack, ROOT + rel, bytes));
    }

    /**
     * Packs in a user directory: the directory itself when it has a {@code pack.yaml}, else each
     * sub-directory that has one. A directory with neither is an error (a typo in {@code --rules}).
     */
    public static List<RulePack> directory(Path dir) throws RuleLoadException {
        if (!Files.isDirectory(dir)) {
            throw new RuleLoadException(dir.toString(), 0, "rule directory does not exist or is not a directory");
        }
        if (hasManifest(dir)) return List.of(readPack(dir));
        List<RulePack> packs = new ArrayList<>();
        try (Stream<Path> children = Files.list(dir)) {
            for (Path child : children.sorted().toList()) {
                if (Files.isDirectory(child) && hasManifest(child)) packs.add(readPack(child));
            }
        } catch (IOException e) {
            throw new RuleLoadException(dir.toString(), 0, "cannot list rule directory: " + e.getMessage());
        }
        if (packs.isEmpty()) {
            throw new RuleLoadException(dir.toString(), 0,
                    "no " + PackManifest.FILE_NAME + " here or in any sub-directory: not a rule pack");
        }
        return packs;
    }

    /** A {@code pack.yaml} is there (whatever it is: a FIFO or a folder of that name is reported when read, not skipped). */
    private static boolean hasManifest(Path dir) {
        return Files.exists(dir.resolve(PackManifest.FILE_NAME), java.nio.file.LinkOption.NOFOLLOW_LINKS);
    }

    private static RulePack readPack(Path root) throws RuleLoadException {
        List<PackFile> files = new ArrayList<>();
        PackLimits limits = new PackLimits(root);
        try (Stream<Path> walk = Files.walk(root, PackLimits.MAX_DEPTH)) {
            for (Path p : walk.sorted(Comparator.naturalOrder()).toList()) {
                String rel = root.relativize(p).toString().replace('\\', '/');
                if (rel.isEmpty() || rel.startsWith(".") || rel.contains("/.")) continue; // editor and VCS files
                if (Files.isDirectory(p)) continue;
                // every other entry is read, so a FIFO, a device or a dangling link is an error naming it, not a skipped rule
                limits.admit(p);
                files.add(new PackFile(rel, p.toString(), limits.read(p)));
            }
        } catch (IOException | UncheckedIOException e) {
            throw new RuleLoadException(root.toString(), 0, "cannot read rule pack: " + e.getMessage());
        }
        PackFile manifest = files.stream().filter(f -> f.path().equals(PackManifest.FILE_NAME)).findFirst().orElse(null);
        if (manifest == null) {
            throw new RuleLoadException(root.resolve(PackManifest.FILE_NAME).toString(), 0, "is a folder, not a pack manifest");
        }
        return new RulePack(PackManifest.parse(manifest), root.toString(), files);
    }
}
