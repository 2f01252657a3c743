package dlproflint.cli;

import org.sqlite.util.OSInfo;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Build step ({@code mvn package}): copies sqlite-jdbc's native library for this machine out of the jar into
 * {@code cli/target/native/}. Otherwise sqlite-jdbc writes it to a new temporary file and compares it byte by
 * byte with the jar's on every run, about 0.1 s of CPU; the launcher points {@code org.sqlite.lib.path} at
 * this copy instead (and sqlite-jdbc falls back to extracting when it cannot load it).
 * <pre>java -cp cli/target/dlprof-lint.jar dlproflint.cli.SqliteNativeLibrary cli/target/native</pre>
 */
public final class SqliteNativeLibrary {
    private SqliteNativeLibrary() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        String name = System.mapLibraryName("sqlitejdbc");
        String resource = "/org/sqlite/native/" + OSInfo.getNativeLibFolderPathForCurrentOS() + "/" + name;
        try (InputStream in = SqliteNativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                System.out.println("no native SQLite library for this platform in the jar (" + resource + "): none copied");
                return;
            }
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, name, ".tmp");
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            System.out.println("native SQLite library: " + dir.resolve(name));
        }
    }
}
