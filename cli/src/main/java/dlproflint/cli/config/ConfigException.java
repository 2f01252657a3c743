package dlproflint.cli.config;

import java.nio.file.Path;

/**
 * The configuration file is malformed: unknown key, wrong type, bad value. The message is
 * {@code <file>:<line>: <problem>} so an editor can jump to it; the CLI exits 2.
 */
public class ConfigException extends Exception {
    public ConfigException(Path file, int line, String message) {
        super(file.getFileName() + (line > 0 ? ":" + line : "") + ": " + message);
    }

    public ConfigException(String message) {
        super(message);
    }
}
