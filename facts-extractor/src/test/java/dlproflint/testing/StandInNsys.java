package dlproflint.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * A stand-in for Nsight Systems' {@code nsys} (which needs a GPU driver install) for the {@code .nsys-rep}
 * tests: a POSIX shell script that accepts only {@code nsys export --type sqlite --output OUT REPORT}, checks
 * that OUT is a new {@code .sqlite} file in an existing folder other than the report's, and that REPORT is an
 * Nsight Systems report; then it writes a copy of a real SQLite export to OUT. It logs its arguments, one per
 * line, to {@link #log()}. With {@code failWith}, it prints that message and exits 1 instead.
 */
public final class StandInNsys {
    private final Path bin;
    private final Path log;

    private StandInNsys(Path bin, Path log) {
        this.bin = bin;
        this.log = log;
    }

    /** Writes {@code dir/bin/nsys}. */
    public static StandInNsys create(Path dir, Path export, String failWith) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path log = dir.resolve("nsys-args.log");
        String script = String.join("\n",
                "#!/bin/sh",
                "# stand-in for nsys (dlprof-lint tests): checks its arguments, then writes a copy of a real export",
                "printf '%s\\n' \"$@\" > " + quote(log),
                "fail() { echo \"stand-in nsys: $*\" >&2; exit 2; }",
                "[ \"$#\" -eq 6 ] || fail \"expected 6 arguments, got $#\"",
                "[ \"$1\" = export ] || fail \"expected 'export', got '$1'\"",
                "[ \"$2\" = --type ] && [ \"$3\" = sqlite ] || fail \"expected '--type sqlite', got '$2 $3'\"",
                "[ \"$4\" = --output ] || fail \"expected '--output', got '$4'\"",
                "out=\"$5\"; in=\"$6\"",
                "case \"$out\" in /*.sqlite) ;; *) fail \"output $out is not an absolute .sqlite path\";; esac",
                "[ -e \"$out\" ] && fail \"output $out exists already\"",
                "[ -d \"$(dirname \"$out\")\" ] || fail \"output folder of $out does not exist\"",
                "[ \"$(cd \"$(dirname \"$out\")\" && pwd -P)\" != \"$(cd \"$(dirname \"$in\")\" && pwd -P)\" ] || fail \"output $out is beside the report\"",
                "head -c 28 \"$in\" | grep -q 'NVIDIA Tegra Profiler Report' || fail \"$in is not an Nsight Systems report\"",
                failWith == null ? "cp " + quote(export) + " \"$out\"" : "echo " + quote(failWith) + "; exit 1",
                "");
        Path nsys = bin.resolve("nsys");
        Files.writeString(nsys, script);
        Files.setPosixFilePermissions(nsys, PosixFilePermissions.fromString("rwxr-xr-x"));
        return new StandInNsys(bin, log);
    }

    /** The folder holding {@code nsys}, to put first on PATH. */
    public Path bin() {
        return bin;
    }

    public Path executable() {
        return bin.resolve("nsys");
    }

    public Path log() {
        return log;
    }

    /** The arguments of the last run, or an empty list when it never ran. */
    public List<String> arguments() throws IOException {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    private static String quote(Object s) {
        return "'" + s.toString().replace("'", "'\\''") + "'";
    }
}
