package dlproflint.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The progress bar: only after a few seconds, on a terminal outside CI, with the share done and the time left. */
class ProgressTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final AtomicLong now = new AtomicLong();

    private Progress progress(boolean terminal, Map<String, String> env) {
        CliEnv e = new CliEnv(new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8),
                Path.of("."), env, terminal, LocalDate::now);
        return new Progress(e, now::get);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aLongReadGetsABarWithPercentAndEta() {
        Progress p = progress(true, Map.of());
        p.started("run.sqlite", 0, 1);
        p.of("run.sqlite").update(10, 100);
        assertFalse(err().contains("%"), "no bar in the first two seconds: " + err());
        now.set(3_000_000_000L);
        p.of("run.sqlite").update(25, 100);
        assertTrue(err().contains("\rdlprof-lint: reading run.sqlite [######..................]  25%  ETA 9 s"), err());
        now.set(3_100_000_000L);
        int length = err().length();
        p.of("run.sqlite").update(26, 100);
        assertEquals(length, err().length(), "redrawn at most five times a second");
        now.set(6_000_000_000L);
        p.of("run.sqlite").update(50, 100);
        assertTrue(err().contains(" 50%  ETA 6 s"), err());
        p.finished("run.sqlite", 6_000_000_000L, 2);
        assertTrue(err().endsWith("\r\u001b[Kdlprof-lint: run.sqlite: read and linted in 6.0 s, 2 findings\n"), "bar cleared: " + err());
    }

    @Test
    void severalProfilesShareOneBar() {
        Progress p = progress(true, Map.of());
        p.started("a.json", 0, 2);
        p.started("b.json", 1, 2);
        now.set(4_000_000_000L);
        p.of("a.json").update(100, 100);
        assertTrue(err().contains("reading 2 profiles [############............]  50%  ETA 4 s"), err());
    }

    @Test
    void nothingInCiOrWhenStderrIsNotATerminal() {
        for (Progress p : new Progress[] {progress(true, Map.of("CI", "true")), progress(false, Map.of())}) {
            p.started("run.sqlite", 0, 1);
            now.set(10_000_000_000L);
            p.of("run.sqlite").update(50, 100);
            p.finished("run.sqlite", 1, 0);
        }
        assertEquals("", err());
    }
}
