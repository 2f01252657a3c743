package dlproflint.engine.compile;

import dlproflint.engine.EngineVersion;
import dlproflint.engine.RuleLoadException;
import dlproflint.engine.catalog.RuleAnnotations;
import dlproflint.engine.catalog.RuleCatalog;
import dlproflint.engine.pack.PackLoader;
import dlproflint.engine.pack.RulePack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Build-time compilation of the built-in packs: compiles every pack found on the class path and
 * writes its kjar to {@code <classes dir>/dlproflint/kjars/<key>.jar} and its rules' annotations to
 * {@code <key>.catalog} beside it, where {@link PackCompiler} finds them at run time, and the list of the packs'
 * files ({@link PackLoader#INDEX}), so that the jar they are shipped in is read without enumerating its entries.
 * Run it from the module that holds the packs, after its resources are copied (see docs/engine.md for the Maven
 * wiring):
 * <pre>java -cp CLASSPATH dlproflint.engine.compile.Precompile target/classes</pre>
 * A pack that does not compile fails the build with its {@code file:line: message} (exit 2).
 */
public final class Precompile {
    private Precompile() {
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: Precompile CLASSES_DIR");
            System.exit(64);
        }
        try {
            List<RulePack> packs = PackLoader.builtin(Precompile.class.getClassLoader());
            List<Path> written = run(packs, Path.of(args[0]), Precompile.class.getClassLoader());
            written.forEach(p -> System.out.println("precompiled " + p));
            System.out.println("indexed " + PackLoader.writeIndex(packs, Path.of(args[0])));
        } catch (RuleLoadException e) {
            System.err.println(e.getMessage());
            System.exit(2);
        } catch (IOException e) {
            System.err.println("cannot write " + PackLoader.INDEX + ": " + e.getMessage());
            System.exit(2);
        }
    }

    /** Compiles the packs into {@code classesDir/dlproflint/kjars/}, replacing kjars of earlier builds. */
    public static List<Path> run(List<RulePack> packs, Path classesDir, ClassLoader loader) throws RuleLoadException {
        Path dir = classesDir.resolve(PackCompiler.PRECOMPILED);
        clear(dir);
        PackCompiler compiler = new PackCompiler(KjarCache.direct(dir), EngineVersion.cacheSalt(), loader, false);
        List<Path> out = new ArrayList<>();
        for (RulePack p : packs) {
            CompiledPack c = compiler.compile(p);
            List<RuleAnnotations> annotations = RuleCatalog.annotations(c.kieBase());
            RuleCatalog.read(p, annotations); // metadata errors fail the build too, not the first run
            compiler.storeCatalog(p, annotations); // rules list/explain and --version then need no Drools
            Path jar = dir.resolve(compiler.key(p) + ".jar");
            if (!Files.isRegularFile(jar)) throw new RuleLoadException(dir.toString(), 0, "could not write " + jar);
            out.add(jar);
        }
        return out;
    }

    private static void clear(Path dir) throws RuleLoadException {
        if (!Files.isDirectory(dir)) return;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new RuleLoadException(dir.toString(), 0, "cannot clear precompiled packs: " + e.getMessage());
        }
    }
}
