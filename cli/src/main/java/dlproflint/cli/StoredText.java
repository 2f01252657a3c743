package dlproflint.cli;

import dlproflint.cli.config.ConfigLoader;

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
import java.util.function.ToIntFunction;

/**
 * Output that depends on nothing but the build, rendered once at build time ({@code mvn package}, phase
 * {@code process-classes}) and stored beside the classes, so that the commands that print it need not build the
 * command line parser's model or read the rule packs (most of their start-up):
 * <ul>
 *   <li>{@link #USAGE}: the root's usage without colour ({@code --help}, no arguments);</li>
 *   <li>{@link #RULES_LIST}: {@code rules list} of the built-in packs alone, as printed where no configuration file is
 *   found and no option is given.</li>
 * </ul>
 * Where a text is missing (classes run outside Maven), or the command's output could differ (colour on, a
 * configuration file found, any option), it is rendered as before. {@code CompletionAndVersionTest} asks each stored
 * text to equal its rendering.
 * <pre>java -cp CLASSPATH dlproflint.cli.StoredText target/classes</pre>
 */
public final class StoredText {
    static final String USAGE = "dlproflint/cli/usage.txt";
    static final String RULES_LIST = "dlproflint/cli/rules-list.txt";

    private StoredText() {
    }

    public static void main(String[] args) throws IOException {
        Path classes = Path.of(args[0]);
        Path empty = Files.createTempDirectory("dlprof-lint-stored-text");
        try {
            store(classes, USAGE, env -> Main.commandLine(env, false, Main.USAGE_ONLY, null).execute("--help"), empty);
            store(classes, RULES_LIST, env -> Main.run(env, "rules", "list", "--no-config"), empty);
        } finally {
            Files.deleteIfExists(empty);
        }
    }

    private static void store(Path classes, String resource, ToIntFunction<CliEnv> command, Path cwd) throws IOException {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliEnv env = new CliEnv(new PrintStream(text, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                cwd, Map.of(), false, LocalDate::now);
        int code = command.applyAsInt(env);
        if (code != ExitCodes.OK) throw new IllegalStateException(resource + ": exit " + code + ": " + err);
        Path out = classes.resolve(resource);
        Files.createDirectories(out.getParent());
        Path tmp = Files.createTempFile(out.getParent(), "stored", ".tmp");
        Files.write(tmp, text.toByteArray());
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("stored text: " + out);
    }

    /** The stored text, or null when this build has none. */
    static String get(String resource) {
        try (InputStream in = StoredText.class.getClassLoader().getResourceAsStream(resource)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code rules list} as stored, when these arguments in this folder would print it; else null. */
    static String rulesList(CliEnv env, String... args) {
        if (args.length != 2 || !"rules".equals(args[0]) || !"list".equals(args[1])) return null;
        if (ConfigLoader.discover(env.cwd()).isPresent()) return null;
        return get(RULES_LIST);
    }
}
