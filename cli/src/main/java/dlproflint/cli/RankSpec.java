package dlproflint.cli;

import dlproflint.engine.RunConfig;
import dlproflint.extract.ReadOptions;
import dlproflint.extract.nsys.NsysTool;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Everything a machine other than the driver needs to read and lint one rank exactly as {@code dlprof-lint job}
 * does on the driver: the read options, the run's rule configuration, and the site rule packs' files (the
 * driver's folders need not exist where the rank is read). Built-in packs come from the class path.
 *
 * @param keyNode   {@code --key-node}
 * @param iterStart {@code --iter-start}
 * @param iterStop  {@code --iter-stop}
 * @param rules     rule selection, severities, parameters and pins
 * @param packs     each site pack folder's files: relative path → content
 */
public record RankSpec(String keyNode, Integer iterStart, Integer iterStop, RunConfig rules,
                       List<Map<String, byte[]>> packs) implements Serializable {
    static RankSpec of(ReadOptions read, RunConfig rules, List<Path> packDirs) {
        List<Map<String, byte[]>> packs = new ArrayList<>();
        for (Path dir : packDirs) packs.add(files(dir));
        return new RankSpec(read.keyNode(), read.iterStart(), read.iterStop(), rules, packs);
    }

    private static Map<String, byte[]> files(Path dir) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
                out.put(dir.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** A digest of the whole spec: equal specs (also after travelling to another machine) have equal digests. */
    String digest() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(new Object[] {keyNode, iterStart, iterStop, rules});
            for (Map<String, byte[]> pack : packs) {
                for (Map.Entry<String, byte[]> f : pack.entrySet()) {
                    out.writeUTF(f.getKey());
                    out.write(f.getValue());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dlproflint.findings.Fingerprint.sha256Hex(java.util.HexFormat.of().formatHex(bytes.toByteArray()));
    }

    /** The read options, with the {@code nsys} of the machine that reads (its environment, its PATH). */
    ReadOptions readOptions() {
        return new ReadOptions(keyNode, iterStart, iterStop, NsysTool.fromEnvironment(System.getenv(), null));
    }

    /** Writes the site packs into fresh folders under {@code root} and returns them. */
    List<Path> unpackPacks(Path root) throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (int i = 0; i < packs.size(); i++) {
            Path dir = root.resolve("pack-" + i);
            for (Map.Entry<String, byte[]> f : packs.get(i).entrySet()) {
                Path target = dir.resolve(f.getKey()).normalize();
                if (!target.startsWith(dir)) throw new IOException("pack file outside its folder: " + f.getKey());
                Files.createDirectories(target.getParent());
                Files.write(target, f.getValue());
            }
            Files.createDirectories(dir);
            dirs.add(dir);
        }
        return dirs;
    }
}
