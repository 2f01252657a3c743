package dlproflint.cli;

import dlproflint.engine.LintEngine;
import dlproflint.findings.PackInfo;
import dlproflint.findings.RuleMetadata;
import dlproflint.engine.catalog.RuleDocs;
import dlproflint.reporters.SafeText;
import dlproflint.reporters.io.AtomicFiles;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.Callable;

/** {@code dlprof-lint rules list|explain|test|docs}: the rule catalogue and the rule-case harness. */
@Command(name = "rules", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class, description = "Show the rule catalogue, explain a rule, or test a rule pack.",
        synopsisSubcommandLabel = "(list | explain | test | docs)")
final class RulesCommand implements Callable<Integer> {
    private final CliEnv env;

    @Spec
    CommandLine.Model.CommandSpec spec;

    RulesCommand(CliEnv env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(env.err());
        return ExitCodes.USAGE;
    }

    /** {@code rules list}. */
    @Command(name = "list", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class, description = "List the rules of every loaded pack.",
            footerHeading = "%nExample:%n", footer = "  dlprof-lint rules list --rules site-rules/")
    static final class ListCommand implements Callable<Integer> {
        private final CliEnv env;
        @Mixin
        RuleOptions rules = new RuleOptions();
        @Mixin
        CommonOptions common = new CommonOptions();

        ListCommand(CliEnv env) {
            this.env = env;
        }

        @Override
        public Integer call() throws Exception {
            LintEngine engine = rules.loadCatalog(env, rules.loadConfig(env));
            // a site pack's metadata is its author's text: printed with every control and bidi character escaped
            for (PackInfo p : engine.packs()) {
                env.out().println("pack " + p.id() + " " + p.version() + " (" + line(p.source()) + ")"
                        + (p.description() == null || p.description().isBlank() ? "" : ": " + line(p.description())));
            }
            List<RuleMetadata> sorted = engine.rules().stream().sorted(Comparator.comparing(RuleMetadata::id)).toList();
            int idWidth = Math.max(2, sorted.stream().mapToInt(m -> m.id().length()).max().orElse(2));
            int catWidth = Math.max(8, sorted.stream().mapToInt(m -> m.category() == null ? 0 : m.category().length()).max().orElse(8));
            String row = "%-" + idWidth + "s  %-8s  %-" + catWidth + "s  %s";
            env.out().println();
            env.out().println(String.format(row, "ID", "SEVERITY", "CATEGORY", "SUMMARY"));
            for (RuleMetadata m : sorted) {
                env.out().println(String.format(row, line(m.id()), m.severity().label(),
                        m.category() == null ? "" : line(m.category()), m.summary() == null ? "" : line(m.summary())));
            }
            env.out().flush();
            return ExitCodes.OK;
        }
    }

    /** A pack author's text on one terminal line: control, bidi and separator characters shown escaped. */
    static String line(String s) {
        return SafeText.escape(s, SafeText.KEEP_NOTHING);
    }

    /** {@code rules explain ID}. */
    @Command(name = "explain", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class, description = "Print a rule's help page (markdown).",
            footerHeading = "%nExample:%n", footer = "  dlprof-lint rules explain dlprof/amp-not-used")
    static final class ExplainCommand implements Callable<Integer> {
        private final CliEnv env;
        @Parameters(paramLabel = "ID", description = "Rule id, e.g. dlprof/amp-not-used.")
        String id;
        @Mixin
        RuleOptions rules = new RuleOptions();
        @Mixin
        CommonOptions common = new CommonOptions();

        ExplainCommand(CliEnv env) {
            this.env = env;
        }

        @Override
        public Integer call() throws Exception {
            LintEngine engine = rules.loadCatalog(env, rules.loadConfig(env));
            RuleMetadata m = engine.rules().stream().filter(r -> r.id().equals(id)).findFirst()
                    .orElseThrow(() -> CliException.usage("unknown rule id '" + id + "' (see 'dlprof-lint rules list')"));
            // the same page as docs/rules/<id>.md: metadata and parameters from the annotations, then the help text
            env.out().print(SafeText.escape(dlproflint.engine.catalog.RuleDocs.explain(m), SafeText.KEEP_TAB_NEWLINE));
            env.out().flush();
            return ExitCodes.OK;
        }
    }

    /** {@code rules test DIR}: runs the {@code *.cases.yaml} beside each rule of a pack. */
    @Command(name = "test", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class, description = "Run the test cases (<rule>.cases.yaml) of the rule pack in DIR.",
            footerHeading = "%nExample:%n", footer = "  dlprof-lint rules test site-rules/")
    static final class TestCommand implements Callable<Integer> {
        private final CliEnv env;
        @Parameters(paramLabel = "DIR", description = "Rule pack folder (with pack.yaml).")
        String dir;
        @Mixin
        CommonOptions common = new CommonOptions();

        TestCommand(CliEnv env) {
            this.env = env;
        }

        @Override
        public Integer call() throws Exception {
            java.nio.file.Path p = env.resolve(dir);
            if (!java.nio.file.Files.isDirectory(p)) throw CliException.usage(dir + ": not a folder");
            return RuleCasesBridge.run(p, env);
        }
    }

    /**
     * {@code rules docs --output DIR}: the rule reference (an index and one page per rule, where each
     * {@code @helpUri} points), rendered from the loaded catalogue by {@link RuleDocs}.
     */
    @Command(name = "docs", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class,
            description = "Write the rule reference (index.md and <pack>/<rule>.md per rule) of the loaded packs to DIR.",
            footerHeading = "%nExamples:%n", footer = {"  dlprof-lint rules docs --output docs/rules",
                    "  dlprof-lint rules docs --rules site-rules/ --pack acme --output site-rules/docs"})
    static final class DocsCommand implements Callable<Integer> {
        private final CliEnv env;
        @Option(names = "--output", required = true, paramLabel = "DIR", description = "Folder to write the pages to (created if missing).")
        String output;
        @Option(names = "--pack", paramLabel = "ID", description = "Only document this pack (repeatable; default: every loaded pack).")
        List<String> packIds = new ArrayList<>();
        @Mixin
        RuleOptions rules = new RuleOptions();
        @Mixin
        CommonOptions common = new CommonOptions();

        DocsCommand(CliEnv env) {
            this.env = env;
        }

        @Override
        public Integer call() throws Exception {
            dlproflint.cli.config.LintConfig cfg = rules.loadConfig(env);
            LintEngine engine = rules.loadCatalog(env, cfg);
            List<PackInfo> packs = engine.packs();
            for (String id : packIds) {
                if (packs.stream().noneMatch(p -> p.id().equals(id))) {
                    throw CliException.usage("unknown pack '" + id + "' (see 'dlprof-lint rules list')");
                }
            }
            if (!packIds.isEmpty()) packs = packs.stream().filter(p -> packIds.contains(p.id())).toList();
            SortedMap<String, String> files = RuleDocs.render(packs, engine.rules(), regenerateCommand());
            Path dir = env.resolve(output);
            if (Files.exists(dir) && !Files.isDirectory(dir)) throw CliException.usage(output + ": not a folder");
            // the pages are generated from the packs: none may replace a file of a pack (its help page) or the configuration
            ReadFiles reads = ReadFiles.of(List.of(), cfg, rules.ruleDirs(env, cfg));
            for (String name : files.keySet()) {
                Path target = dir.resolve(name);
                OutputChecks.refuseRead(target, OutputChecks.classify(target, "rule page"), "rule page", reads);
            }
            for (Map.Entry<String, String> f : files.entrySet()) {
                Path target = dir.resolve(f.getKey());
                Files.createDirectories(target.getParent());
                byte[] bytes = f.getValue().getBytes(StandardCharsets.UTF_8);
                AtomicFiles.write(target, out -> out.write(bytes));
            }
            env.out().println("wrote " + files.size() + " files (" + packs.size() + (packs.size() == 1 ? " pack" : " packs") + ") to " + output);
            env.out().flush();
            return ExitCodes.OK;
        }

        /** The command line that reproduces these pages, named in their header comment (without machine paths). */
        private String regenerateCommand() {
            StringBuilder b = new StringBuilder("dlprof-lint rules docs");
            for (String d : rules.ruleDirs) b.append(" --rules ").append(d);
            for (String p : packIds) b.append(" --pack ").append(p);
            return b.append(" --output ").append(output).toString();
        }
    }
}
