package dlproflint.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rules docs}: a site pack documents itself the way the built-in packs do. */
class RulesDocsCliTest {
    @TempDir
    Path dir;

    @Test
    void writesTheIndexAndOnePagePerRuleOfTheSelectedPack() throws Exception {
        CliHarness cli = new E2eFixture(dir).cli();
        CliHarness.Result r = cli.run("rules", "docs", "--rules", "site-pack", "--pack", "site", "--output", "site-pack/docs");
        assertEquals(0, r.code(), r::toString);
        Path docs = dir.resolve("site-pack/docs");
        List<String> files;
        try (Stream<Path> s = Files.walk(docs)) {
            files = s.filter(Files::isRegularFile).map(p -> docs.relativize(p).toString().replace('\\', '/')).sorted().toList();
        }
        // only the selected pack: no built-in pages, no temporary files left behind by the atomic writes
        assertEquals(List.of("index.md", "site/kernel-seen.md", "site/profile-seen.md"), files);
        String page = Files.readString(docs.resolve("site/kernel-seen.md"));
        assertTrue(page.startsWith("<!-- Generated from the site rule pack") && page.lines().findFirst().orElseThrow()
                .contains("dlprof-lint rules docs --rules site-pack --pack site --output site-pack/docs"), page);
        assertTrue(page.contains("| pack | [`site`](../index.md) 0.3.0 |") && page.contains("Every kernel of the profile, one finding each. Used by the CLI tests."), page);
        assertTrue(!page.contains("# site/kernel-seen\n"), "the help page's own title is replaced by the generated one:\n" + page);
        assertTrue(Files.readString(docs.resolve("index.md")).contains("| [`site/kernel-seen`](site/kernel-seen.md) | warning | test |"));
    }

    @Test
    void anUnknownPackIsAUsageError() throws Exception {
        CliHarness.Result r = new E2eFixture(dir).cli().run("rules", "docs", "--pack", "nope", "--output", "out");
        assertEquals(ExitCodes.USAGE, r.code(), r::toString);
        assertEquals(1, r.errLines().length, r::toString);
        assertTrue(r.err().contains("unknown pack 'nope'"), r::toString);
        assertTrue(!Files.exists(dir.resolve("out")), "nothing written on error");
    }
}
