package dlproflint.engine.pack;

import java.nio.charset.StandardCharsets;

/**
 * One file of a rule pack.
 *
 * @param path    path inside the pack, with {@code /} separators (e.g. {@code amp-not-used.drl})
 * @param origin  where it came from, as error messages should name it: the file path for directory
 *                packs, the class-path resource name for built-in packs
 * @param content raw bytes (DRL and YAML are read as UTF-8)
 */
public record PackFile(String path, String origin, byte[] content) {
    public String text() {
        return new String(content, StandardCharsets.UTF_8);
    }

    /** File name without directories. */
    public String fileName() {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }

    /** The path of a sibling with another suffix: {@code a/x.drl} + {@code .md} -> {@code a/x.md}. */
    public String sibling(String suffix) {
        int dot = path.lastIndexOf('.');
        return (dot < 0 ? path : path.substring(0, dot)) + suffix;
    }
}
