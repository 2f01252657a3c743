package dlproflint.engine;

import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** Test packs under src/test/resources/testpacks and tiny fact sets. */
final class TestPacks {
    private TestPacks() {
    }

    static Path dir(String name) {
        try {
            return Path.of(TestPacks.class.getResource("/testpacks/" + name + "/pack.yaml").toURI()).getParent();
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("test pack " + name + " missing", e);
        }
    }

    static EngineOptions only(String name) {
        return new EngineOptions(false, java.util.List.of(dir(name)), RunConfig.DEFAULT, null);
    }

    static ProfileFacts.Builder profile() {
        return ProfileFacts.builder().profile(new ProfileInfo("/tmp/p.sqlite", "nsys-sqlite", null, null, 0, 1_000_000));
    }
}
