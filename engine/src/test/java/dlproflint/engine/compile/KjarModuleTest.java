package dlproflint.engine.compile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.kie.api.KieServices;
import org.kie.api.builder.KieModule;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Our kjars read without Drools' XML binding give the module Drools' own reader gives. */
class KjarModuleTest {
    @TempDir
    Path classes;

    @Test
    void readsOurKjarAsDroolsDoesAndLeavesOtherDescriptorsToDrools() throws Exception {
        byte[] kjar = Files.readAllBytes(Precompile.run(List.of(PrecompileTest.validPack()), classes, getClass().getClassLoader()).get(0));

        KieServices ks = KieServices.get();
        KieModule ours = KjarModule.read(kjar);
        assertNotNull(ours, "the empty descriptor this tool writes");
        KieModule drools = ((org.drools.compiler.kie.builder.impl.KieRepositoryImpl) ks.getRepository())
                .getKieModule(ks.getResources().newByteArrayResource(kjar));
        assertEquals(drools.getReleaseId(), ours.getReleaseId());
        assertEquals(drools.getClass(), ours.getClass(), "an executable-model kjar becomes the same kind of module");
        var droolsFiles = (org.drools.compiler.kie.builder.impl.InternalKieModule) drools;
        var ourFiles = (org.drools.compiler.kie.builder.impl.InternalKieModule) ours;
        assertEquals(new TreeSet<>(droolsFiles.getFileNames()), new TreeSet<>(ourFiles.getFileNames()), "the same files");
        for (String f : droolsFiles.getFileNames()) assertArrayEquals(droolsFiles.getBytes(f), ourFiles.getBytes(f), f);
        ks.getRepository().addKieModule(ours);
        Set<String> rules = new TreeSet<>();
        ks.newKieContainer(ours.getReleaseId(), getClass().getClassLoader()).getKieBase().getKiePackages()
                .forEach(p -> p.getRules().forEach(r -> rules.add(p.getName() + "." + r.getName())));
        assertEquals(4, rules.size(), rules::toString);

        byte[] named = withDescriptor(kjar, "<kmodule xmlns=\"http://www.drools.org/xsd/kmodule\"><kbase name=\"k\"/></kmodule>");
        assertNull(KjarModule.read(named), "a descriptor with content is read Drools' way");
    }

    private static byte[] withDescriptor(byte[] kjar, String descriptor) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(kjar)); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                zip.putNextEntry(new ZipEntry(e.getName()));
                zip.write(e.getName().equals("META-INF/kmodule.xml") ? descriptor.getBytes(StandardCharsets.UTF_8) : in.readAllBytes());
                zip.closeEntry();
            }
        }
        return out.toByteArray();
    }
}
