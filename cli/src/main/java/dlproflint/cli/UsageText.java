package dlproflint.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.util.Map;

/**
 * The root's usage, as {@code --help} prints it without colour, rendered by picocli once at build time
 * ({@code mvn package}, phase {@code process-classes}) and stored beside the classes: {@code --help} then prints the
 * stored text instead of building the command line parser's model (about half of its start-up). The text depends on
 * nothing but the commands' annotations, which the same build compiled; where it is missing (classes run outside
 * Maven) or colour is on, picocli renders it as before. {@code CompletionAndVersionTest} asks {@code --help} (the
 * stored text) to equal {@code help} (rendered).
 * <pre>java -cp CLASSPATH dlproflint.cli.UsageText target/classes</pre>
 */
public final class UsageText {
    static final String RESOURCE = "dlproflint/cli/usage.txt";

    private UsageText() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]).resolve(RESOURCE);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(text, true, StandardCharsets.UTF_8);
        CliEnv env = new CliEnv(print, print, Path.of("."), Map.of(), false, LocalDate::now);
        int code = Main.commandLine(env, false, Main.USAGE_ONLY, null).execute("--help");
        if (code != ExitCodes.OK) throw new IllegalStateException("--help exited " + code + ": " + text);
        Files.createDirectories(out.getParent());
        Path tmp = Files.createTempFile(out.getParent(), "usage", ".tmp");
        Files.write(tmp, text.toByteArray());
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("usage text: " + out);
    }

    /** The stored text, or null when this build has none. */
    static String stored() {
        try (InputStream in = UsageText.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }
}
