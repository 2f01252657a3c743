package dlproflint.cli.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code nsys profile} command line of {@code dlprof-lint run --nsys}: nsys starts the training command and
 * collects only between the bootstrap's {@code cudaProfilerStart} and {@code cudaProfilerStop}
 * ({@code --capture-range=cudaProfilerApi}); {@code --capture-range-end=stop} keeps the application running after
 * the range, unprofiled, and nsys writes the report when it exits.
 */
public final class NsysProfile {
    /** nsys appends this to {@code --output}; the report path must end with it. */
    public static final String SUFFIX = ".nsys-rep";

    private NsysProfile() {
    }

    /** {@code nsys profile ... --output=REPORT} (without the suffix, which nsys adds), the training command to follow. */
    public static List<String> argv(Path nsys, Path report, CaptureSettings settings) {
        List<String> argv = new ArrayList<>();
        argv.add(nsys.toString());
        argv.add("profile");
        argv.add("--capture-range=cudaProfilerApi");
        argv.add("--capture-range-end=stop");
        // CUDA API and kernels, the NVTX ranges emit_nvtx and the bootstrap write, OS runtime calls (data loading waits)
        argv.add("--trace=cuda,nvtx,osrt,cudnn,cublas");
        if (settings.capture().contains("memory")) argv.add("--cuda-memory-usage=true");
        argv.add("--force-overwrite=true");
        String out = report.toString();
        argv.add("--output=" + (out.endsWith(SUFFIX) ? out.substring(0, out.length() - SUFFIX.length()) : out));
        return argv;
    }
}
