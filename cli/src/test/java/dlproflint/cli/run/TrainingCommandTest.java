package dlproflint.cli.run;

import dlproflint.cli.CliException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The training command after {@code --} taken apart: interpreter, its flags, the script or module and their arguments. */
class TrainingCommandTest {
    @TempDir
    Path dir;
    Path bin;
    Map<String, String> env;

    @BeforeEach
    void setUp() throws IOException {
        bin = Files.createDirectories(dir.resolve("bin"));
        for (String name : List.of("python3", "python3.11")) {
            Path p = bin.resolve(name);
            Files.writeString(p, "#!/bin/sh\n");
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.writeString(dir.resolve("train.py"), "pass\n");
        env = Map.of("PATH", "/nonexistent:" + bin);
    }

    private TrainingCommand parse(String python, String... words) throws CliException {
        return TrainingCommand.parse(List.of(words), python, dir, env);
    }

    @Test
    void anInterpreterFirstKeepsItsFlagsAndTheScriptsArguments() throws CliException {
        TrainingCommand c = parse(null, "python3.11", "-u", "-X", "dev", "train.py", "--lr", "0.1");
        assertEquals(bin.resolve("python3.11"), c.interpreter());
        assertEquals(List.of("-u", "-X", "dev"), c.flags());
        assertEquals(List.of("train.py", "--lr", "0.1"), c.target());
        assertEquals("train.py", c.label());
        assertEquals("train", c.stem());
        assertEquals(List.of(bin.resolve("python3.11").toString(), "-u", "-X", "dev", "/b/boot.py", "/b/c.json", "train.py",
                "--lr", "0.1"), c.argv(Path.of("/b/boot.py"), Path.of("/b/c.json")));
    }

    @Test
    void aScriptAloneRunsWithPythonOrTheFirstPython3OnPath() throws CliException {
        assertEquals(bin.resolve("python3"), parse(null, "train.py").interpreter());
        assertEquals(bin.resolve("python3.11"), parse(bin.resolve("python3.11").toString(), "train.py").interpreter());
    }

    @Test
    void aModuleRunsWithMinusM() throws CliException {
        TrainingCommand c = parse(null, "python3", "-m", "pkg.train", "--epochs", "1");
        assertEquals(List.of("-m", "pkg.train", "--epochs", "1"), c.target());
        assertEquals("-m pkg.train", c.label());
        assertEquals("train", c.stem());
    }

    @Test
    void whatCannotRunIsAUsageError() {
        assertTrue(assertThrows(CliException.class, () -> parse(null)).getMessage().contains("no training command"));
        assertTrue(assertThrows(CliException.class, () -> parse(null, "python3", "-c", "print(1)")).getMessage().contains("-c"));
        assertTrue(assertThrows(CliException.class, () -> parse(null, "python3", "nope.py")).getMessage().contains("no such script"));
        assertTrue(assertThrows(CliException.class, () -> parse("python3", "python3", "train.py")).getMessage().contains("give it once"));
        CliException none = assertThrows(CliException.class,
                () -> TrainingCommand.parse(List.of("train.py"), null, dir, Map.of("PATH", "/nonexistent")));
        assertTrue(none.getMessage().startsWith("python3 not found on PATH"), none.getMessage());
        assertEquals(2, none.exitCode());
    }

    @Test
    void interpretersAreRecognisedByName() {
        for (String p : List.of("python", "python3", "python3.11", "/usr/bin/python3", "./venv/bin/python", "pypy3")) {
            assertTrue(TrainingCommand.isInterpreter(p), p);
        }
        for (String p : List.of("train.py", "torchrun", "pythonic.py", "my-python-script")) {
            assertTrue(!TrainingCommand.isInterpreter(p), p);
        }
    }
}
