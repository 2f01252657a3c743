package dlproflint.job;

import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.Finding;
import dlproflint.findings.RankSummary;

import java.util.ArrayList;
import java.util.List;

/** Reduces one rank's full facts and findings to its {@link RankSummary}, right after the rank is read and linted. */
public final class RankSummaries {
    private RankSummaries() {
    }

    /**
     * @param given    the profile as the user named it
     * @param findings the rank's findings from the profile-scope packs (unfiltered)
     */
    public static RankSummary of(String given, ProfileFacts facts, List<Finding> findings) {
        List<String> warnings = new ArrayList<>();
        for (ExtractionWarning w : facts.warnings()) warnings.add(w.code() + ": " + w.message());
        return new RankSummary(given, facts.profile().format(), facts.rank(), facts.stepActivity(),
                facts.collectiveCalls(), findings, facts.system().hostname(), busiestGpu(facts), warnings);
    }

    /** The name of the GPU that ran the most kernel time (a rank drives one GPU; DataParallel may list more). */
    private static String busiestGpu(ProfileFacts facts) {
        int device = -1;
        long best = -1;
        for (GpuUsage u : facts.gpuUsage()) {
            if (u.kernelNs() > best) {
                best = u.kernelNs();
                device = u.deviceId();
            }
        }
        for (GpuInfo g : facts.gpus()) {
            if (g.deviceId() == device || device < 0) return GpuInfo.UNKNOWN_NAME.equals(g.name()) ? null : g.name();
        }
        return null;
    }
}
