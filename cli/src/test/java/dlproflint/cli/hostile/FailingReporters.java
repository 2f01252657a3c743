package dlproflint.cli.hostile;

import dlproflint.findings.LintRun;
import dlproflint.reporters.ReportOptions;
import dlproflint.reporters.Reporter;
import dlproflint.reporters.ReporterFactory;
import dlproflint.reporters.Reporters;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Test-only report formats, registered through {@code META-INF/services} in the cli test resources (they
 * are not in the shipped jar): each writes the first half of a real JSON report and then fails, the way a
 * full disk or a killed process would interrupt a real one.
 * <ul>
 *   <li>{@value #FAIL}: throws an {@link IOException} half-way;</li>
 *   <li>{@value #STALL}: flushes half and then waits (for a test that kills the process).</li>
 * </ul>
 */
public final class FailingReporters implements ReporterFactory {
    static final String FAIL = "test-fails-half-way";
    static final String STALL = "test-stalls-half-way";

    /** ServiceLoader needs one class per format name; the second format is {@link Stall}. */
    @Override
    public String format() {
        return FAIL;
    }

    @Override
    public Reporter create(ReportOptions options) {
        return new HalfWay(FAIL, options, false);
    }

    public static final class Stall implements ReporterFactory {
        @Override
        public String format() {
            return STALL;
        }

        @Override
        public Reporter create(ReportOptions options) {
            return new HalfWay(STALL, options, true);
        }
    }

    private record HalfWay(String format, ReportOptions options, boolean stall) implements Reporter {
        @Override
        public void render(LintRun run, OutputStream out) throws IOException {
            java.io.ByteArrayOutputStream whole = new java.io.ByteArrayOutputStream();
            Reporters.create("json", options).render(run, whole);
            byte[] b = whole.toByteArray();
            out.write(b, 0, b.length / 2);
            out.flush();
            if (stall) {
                try {
                    Thread.sleep(120_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            throw new IOException("simulated write failure after " + b.length / 2 + " bytes");
        }
    }
}
