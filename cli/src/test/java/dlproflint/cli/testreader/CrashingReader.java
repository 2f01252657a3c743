package dlproflint.cli.testreader;

import dlproflint.extract.FileSniff;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ProfileFacts;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A reader with a bug, registered only on the test class path: it claims files that start with
 * {@code CRASH-ME} and fails with an unexpected exception, to test the internal-error path (exit 70).
 */
public final class CrashingReader implements ProfileReader {
    @Override
    public String format() {
        return "crash-test";
    }

    @Override
    public boolean accepts(Path file, FileSniff sniff) {
        return new String(sniff.head(), StandardCharsets.US_ASCII).startsWith("CRASH-ME");
    }

    @Override
    public ProfileFacts read(Path file, ReadOptions options) {
        throw new IllegalStateException("simulated reader bug");
    }
}
