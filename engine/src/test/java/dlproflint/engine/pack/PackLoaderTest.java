package dlproflint.engine.pack;

import dlproflint.engine.RuleLoadException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pack discovery without compiling anything: class-path jars (as in the CLI fat jar) and directories. */
class PackLoaderTest {
    @TempDir
    Path tmp;

    private static final String MANIFEST = "id: zz\nversion: 2.0.1\ndescription: test\n";

    private Path jar(String... namesAndContents) throws IOException {
        Path jar = tmp.resolve("rules.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out)) {
            for (String dir : List.of("dlproflint/", "dlproflint/packs/", "dlproflint/packs/zz/")) j.putNextEntry(new JarEntry(dir));
            for (int i = 0; i < namesAndContents.length; i += 2) {
                j.putNextEntry(new JarEntry(namesAndContents[i]));
                j.write(namesAndContents[i + 1].getBytes(StandardCharsets.UTF_8));
            }
        }
        return jar;
    }

    @Test
    void builtinPacksAreFoundInsideAJar() throws Exception {
        Path jar = jar("dlproflint/packs/zz/pack.yaml", MANIFEST, "dlproflint/packs/zz/sub/r.drl", "rule",
                "dlproflint/packs/zz/r.md", "# help", "dlproflint/packs/README.txt", "not a pack",
                "dlproflint/packs/nomanifest/x.drl", "ignored");
        try (URLClassLoader cl = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            List<RulePack> packs = PackLoader.builtin(cl);
            assertEquals(1, packs.size());
            RulePack p = packs.get(0);
            assertEquals("zz", p.id());
            assertEquals("2.0.1", p.version());
            assertTrue(p.builtin());
            assertEquals(List.of("pack.yaml", "r.md", "sub/r.drl"), p.files().stream().map(PackFile::path).toList());
            assertEquals("dlproflint/packs/zz/sub/r.drl", p.drlFiles().get(0).origin());
        }
    }

    @Test
    void aJarWithTheBuildsIndexIsReadByItsNames() throws Exception {
        // the index the build writes for packs read from a class-path directory
        Path classes = tmp.resolve("classes");
        Files.createDirectories(classes.resolve("dlproflint/packs/zz/sub"));
        Files.writeString(classes.resolve("dlproflint/packs/zz/pack.yaml"), MANIFEST);
        Files.writeString(classes.resolve("dlproflint/packs/zz/sub/r.drl"), "rule");
        Files.writeString(classes.resolve("dlproflint/packs/zz/r.md"), "# help");
        List<RulePack> fromDirectory;
        try (URLClassLoader cl = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
            fromDirectory = PackLoader.builtin(cl);
        }
        String index = Files.readString(PackLoader.writeIndex(fromDirectory, classes));
        assertTrue(index.endsWith("zz/pack.yaml\nzz/r.md\nzz/sub/r.drl\n"), index);

        // a file the index does not list is not read: the jar's entries are not enumerated
        Path jar = jar(PackLoader.INDEX, index, "dlproflint/packs/zz/pack.yaml", MANIFEST, "dlproflint/packs/zz/sub/r.drl", "rule",
                "dlproflint/packs/zz/r.md", "# help", "dlproflint/packs/zz/unlisted.drl", "rule");
        try (URLClassLoader cl = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            List<RulePack> packs = PackLoader.builtin(cl);
            assertEquals(List.of("pack.yaml", "r.md", "sub/r.drl"), packs.get(0).files().stream().map(PackFile::path).toList());
            assertEquals(fromDirectory.get(0).compileHash("s"), packs.get(0).compileHash("s"), "the same pack either way");
            assertEquals(List.of("zz"), PackLoader.builtinManifests(cl).stream().map(PackManifest::id).toList());
        }

        // an index that names a file the jar lacks: the jar was changed after its build
        Path broken = jar(PackLoader.INDEX, index, "dlproflint/packs/zz/pack.yaml", MANIFEST, "dlproflint/packs/zz/r.md", "# help");
        try (URLClassLoader cl = new URLClassLoader(new URL[] {broken.toUri().toURL()}, null)) {
            RuleLoadException e = assertThrows(RuleLoadException.class, () -> PackLoader.builtin(cl));
            assertTrue(e.getMessage().contains("lists zz/sub/r.drl"), e.getMessage());
        }
    }

    @Test
    void aFolderOfPacksAndAPackFolder() throws Exception {
        Files.createDirectories(tmp.resolve("site/a"));
        Files.createDirectories(tmp.resolve("site/b"));
        Files.writeString(tmp.resolve("site/a/pack.yaml"), "id: a\nversion: 1.0.0\ndescription: A\n");
        Files.writeString(tmp.resolve("site/b/pack.yaml"), "id: b\nversion: 1.0.0\ndescription: B\n");
        Files.writeString(tmp.resolve("site/b/.r.drl.swp"), "editor junk");
        assertEquals(List.of("a", "b"), PackLoader.directory(tmp.resolve("site")).stream().map(RulePack::id).toList());
        RulePack b = PackLoader.directory(tmp.resolve("site/b")).get(0);
        assertEquals(List.of("pack.yaml"), b.files().stream().map(PackFile::path).toList(), "dot files are skipped");
        assertEquals(tmp.resolve("site/b").toString(), b.source());
    }

    @Test
    void notAPackIsAnError() throws Exception {
        Files.createDirectories(tmp.resolve("empty"));
        RuleLoadException e = assertThrows(RuleLoadException.class, () -> PackLoader.directory(tmp.resolve("empty")));
        assertEquals(tmp.resolve("empty") + ": no pack.yaml here or in any sub-directory: not a rule pack", e.getMessage());
        RuleLoadException missing = assertThrows(RuleLoadException.class, () -> PackLoader.directory(tmp.resolve("nope")));
        assertTrue(missing.getMessage().endsWith("rule directory does not exist or is not a directory"));
    }

    @Test
    void manifestErrorsNameTheLine() {
        RuleLoadException e = assertThrows(RuleLoadException.class, () -> PackManifest.parse(
                new PackFile("pack.yaml", "p/pack.yaml", "id: x\nversion: 1.0\ndescription: d\n".getBytes(StandardCharsets.UTF_8))));
        assertEquals("p/pack.yaml:2: pack version '1.0' is not a semantic version (MAJOR.MINOR.PATCH)", e.getMessage());
        RuleLoadException unknown = assertThrows(RuleLoadException.class, () -> PackManifest.parse(
                new PackFile("pack.yaml", "p/pack.yaml", "id: x\nversion: 1.0.0\ndescription: d\nauthor: me\n".getBytes(StandardCharsets.UTF_8))));
        assertEquals("p/pack.yaml:4: unknown field 'author' in pack manifest (allowed: id, version, description, minEngine, helpUri, scope, trusted)", unknown.getMessage());
        RuleLoadException missing = assertThrows(RuleLoadException.class, () -> PackManifest.parse(
                new PackFile("pack.yaml", "p/pack.yaml", "id: x\nversion: 1.0.0\n".getBytes(StandardCharsets.UTF_8))));
        assertEquals("p/pack.yaml:1: pack manifest lacks required field 'description'", missing.getMessage());
    }

    @Test
    void manifestFieldsAreScalarsAndTrustedIsABoolean() throws Exception {
        PackManifest quoted = PackManifest.parse(manifest("id: x\nversion: '1.0.0'\ndescription: >-\n  two\n  lines\ntrusted: \"true\"\n"));
        assertEquals("1.0.0", quoted.version());
        assertEquals("two lines", quoted.description());
        assertTrue(quoted.isTrusted(), "trusted written as a string");
        assertEquals(false, PackManifest.parse(manifest("id: x\nversion: 1.0.0\ndescription: d\ntrusted: false\n")).trusted());
        assertEquals(null, PackManifest.parse(manifest("id: x\nversion: 1.0.0\ndescription: d\n")).trusted());
        assertEquals("p/pack.yaml:4: bad pack manifest: trusted 'maybe' must be true or false",
                assertThrows(RuleLoadException.class, () -> PackManifest.parse(
                        manifest("id: x\nversion: 1.0.0\ndescription: d\ntrusted: maybe\n"))).getMessage());
        assertEquals("p/pack.yaml:2: bad pack manifest: field 'version' must be a single value, not a list or a mapping",
                assertThrows(RuleLoadException.class, () -> PackManifest.parse(
                        manifest("id: x\nversion: [1, 0, 0]\ndescription: d\n"))).getMessage());
        assertTrue(assertThrows(RuleLoadException.class, () -> PackManifest.parse(manifest("- id: x\n"))).getMessage()
                .startsWith("p/pack.yaml:1: bad pack manifest: it must be a mapping of fields (id, version,"));
        assertTrue(assertThrows(RuleLoadException.class, () -> PackManifest.parse(manifest("id: x\n  version: : :\n"))).getMessage()
                .startsWith("p/pack.yaml:2: bad pack manifest: "), "a YAML syntax error names its line");
        assertEquals("p/pack.yaml:1: empty pack manifest (needs id, version, description)",
                assertThrows(RuleLoadException.class, () -> PackManifest.parse(manifest("# nothing\n"))).getMessage());
    }

    private static PackFile manifest(String text) {
        return new PackFile("pack.yaml", "p/pack.yaml", text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void compileHashCoversDrlAndManifestButNotHelpOrCases() throws Exception {
        PackManifest m = new PackManifest("zz", "1.0.0", "d", null, null);
        RulePack base = pack(m, "rule a", "# help", "cases: 1");
        assertEquals(base.compileHash("s"), pack(m, "rule a", "# other help", "cases: 2").compileHash("s"));
        assertNotEquals(base.compileHash("s"), pack(m, "rule b", "# help", "cases: 1").compileHash("s"));
        assertNotEquals(base.compileHash("s"), base.compileHash("engine 2"));
    }

    private static RulePack pack(PackManifest m, String drl, String md, String cases) {
        return new RulePack(m, "x", List.of(
                new PackFile("pack.yaml", "x/pack.yaml", "id: zz".getBytes(StandardCharsets.UTF_8)),
                new PackFile("r.cases.yaml", "x/r.cases.yaml", cases.getBytes(StandardCharsets.UTF_8)),
                new PackFile("r.drl", "x/r.drl", drl.getBytes(StandardCharsets.UTF_8)),
                new PackFile("r.md", "x/r.md", md.getBytes(StandardCharsets.UTF_8))));
    }
}
