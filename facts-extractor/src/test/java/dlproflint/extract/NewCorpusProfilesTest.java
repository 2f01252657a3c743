package dlproflint.extract;

import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The corpus and the suite's registry of it ({@link Corpus#REGISTRY}) agree. Corpus-wide tests run over the
 * registered profiles only, so a profile added to {@code ../shared/corpus} (or one removed from it) is this one
 * failure naming the command that registers it, rather than a failure of every snapshot, digest, kernel-list and
 * table test at once. Outside CI it is a skipped test with a notice: a newcomer's corpus may be newer than the
 * checkout.
 */
class NewCorpusProfilesTest {
    @Test
    void everyCorpusProfileIsRegisteredAndEveryRegisteredOneIsThere() {
        List<String> present = Corpus.present();
        if (present.isEmpty()) return;
        Set<String> known = Corpus.registered();
        List<String> added = present.stream().filter(p -> !known.contains(p)).toList();
        List<String> gone = known.stream().filter(p -> !present.contains(p)).toList();
        if (added.isEmpty() && gone.isEmpty()) return;
        List<String> parts = new ArrayList<>();
        if (!added.isEmpty()) parts.add(added.size() + " corpus " + (added.size() == 1 ? "profile has" : "profiles have")
                + " no snapshot yet: " + String.join(", ", added));
        if (!gone.isEmpty()) parts.add(gone.size() + " registered " + (gone.size() == 1 ? "profile is" : "profiles are")
                + " gone from the corpus: " + String.join(", ", gone));
        String msg = String.join("; ", parts) + ". Register the corpus as it is with `" + Corpus.UPDATE_COMMAND
                + "`, review and commit the new snapshots, digests and kernel list (account for them in your note), then add"
                + " the new profiles' rows to IterationGeneralisationTest and PyTorchPackCorpusTest, whose table checks name"
                + " what is missing";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) fail(msg);
        System.err.println("NOTICE: skipping: " + msg);
        Assumptions.abort(msg);
    }
}
