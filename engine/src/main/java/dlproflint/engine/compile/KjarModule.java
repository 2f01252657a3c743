package dlproflint.engine.compile;

import org.drools.compiler.compiler.io.memory.MemoryFileSystem;
import org.drools.compiler.kie.builder.impl.KieBuilderImpl;
import org.drools.compiler.kie.builder.impl.InternalKieModuleProvider;
import org.drools.compiler.kproject.models.KieModuleModelImpl;
import org.kie.api.builder.KieModule;
import org.kie.api.builder.model.KieModuleModel;
import org.kie.util.maven.support.ReleaseIdImpl;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.jar.JarInputStream;
import java.util.zip.ZipEntry;

/**
 * Reads a kjar this tool compiled (shipped on the class path or in the cache) into a KieModule without Drools' XML
 * binding. Drools' own way ({@code KieRepository.addKieModule(Resource)}) parses the kjar's {@code kmodule.xml} with
 * XStream, whose set-up was about a third of loading the built-in packs on the first lint of a run; our kjars all
 * carry the same empty descriptor ({@link PackCompiler#KMODULE}), whose model is Drools' default one. A kjar with any
 * other descriptor is read Drools' way. The kjar's entries are unpacked here too: Drools' {@code
 * MemoryFileSystem.readFromJar} reads them a byte per call through the inflater, which took longer than the rest.
 */
final class KjarModule {
    private KjarModule() {
    }

    /** The module, or null when the kjar's descriptor is not the empty one (read it with Drools' own reader). */
    static KieModule read(byte[] kjar) {
        MemoryFileSystem files = unpack(kjar);
        byte[] descriptor = files.getBytes(KieModuleModelImpl.KMODULE_JAR_PATH);
        if (descriptor == null || !PackCompiler.KMODULE.equals(new String(descriptor, StandardCharsets.UTF_8).strip())) {
            return null;
        }
        String pom = files.findPomProperties();
        if (pom == null) return null;
        KieModuleModel model = new KieModuleModelImpl();
        KieBuilderImpl.setDefaultsforEmptyKieModule(model);
        // as Drools' reader does after parsing the descriptor: an executable-model kjar becomes a canonical module
        return InternalKieModuleProvider.get(ReleaseIdImpl.fromPropertiesString(pom), model, files);
    }

    /** The kjar's files as {@code MemoryFileSystem.readFromJar} makes them (the same entries, the same folders). */
    private static MemoryFileSystem unpack(byte[] kjar) {
        MemoryFileSystem files = new MemoryFileSystem();
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(kjar))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                if (!e.isDirectory()) files.write(e.getName(), in.readAllBytes(), true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }
}
