package dlproflint.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Every file under a folder with its SHA-256, to prove a run left the folder as it found it (no file added, none changed). */
public final class DirectorySnapshot {
    private DirectorySnapshot() {
    }

    /** Relative path (with '/') to SHA-256 hex, or to {@code "dir"} for folders. */
    public static Map<String, String> of(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted().toList()) {
                String rel = dir.relativize(p).toString().replace('\\', '/');
                files.put(rel, Files.isDirectory(p) ? "dir" : sha256(p));
            }
        }
        return files;
    }

    public static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
