package dlproflint.reporters.sarif;

import com.contrastsecurity.sarif.ArtifactLocation;
import com.contrastsecurity.sarif.CodeFlow;
import com.contrastsecurity.sarif.Location;
import com.contrastsecurity.sarif.LogicalLocation;
import com.contrastsecurity.sarif.Message;
import com.contrastsecurity.sarif.PhysicalLocation;
import com.contrastsecurity.sarif.Region;
import com.contrastsecurity.sarif.ThreadFlow;
import com.contrastsecurity.sarif.ThreadFlowLocation;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.StackFrame;
import dlproflint.facts.StackFrames;
import dlproflint.findings.Finding;
import dlproflint.findings.SourceLines;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The chain from the model's code to the GPU for one result: the user frames of the finding's stack that lie in the
 * repository (outermost first) as a {@code codeFlow}, each frame besides the primary one also as a
 * {@code relatedLocation}, and the op and kernel as {@code logicalLocations} of the innermost step, since they have
 * no file. Every location has a physical location, as GitHub requires.
 */
final class SarifChain {
    /** What to add to the result: flows, related locations and the op/kernel; empty when nothing is in the repository. */
    record Parts(List<CodeFlow> codeFlows, Set<Location> related, Set<LogicalLocation> logical) {
    }

    private SarifChain() {
    }

    static Parts of(Finding f, ProfileFacts facts, SourceLocator locator, ArtifactRef primary) {
        SourceLines.Chain chain = SourceLines.chain(f.subject(), facts);
        List<StackFrame> frames = new ArrayList<>();
        // the rule's own location wins (a whole-profile finding about its largest op); its chain is that frame alone
        if (f.location() != null && !chain.stack().contains(f.location())) frames.add(f.location());
        else for (StackFrame s : chain.stack()) if (StackFrames.isUserFrame(s)) frames.add(s);
        Set<LogicalLocation> logical = new LinkedHashSet<>();
        if (chain.op() != null && f.location() != null && chain.stack().contains(f.location())) {
            logical.add(new LogicalLocation().withName(chain.op().name()).withFullyQualifiedName(chain.op().id()).withKind("function"));
        }
        if (chain.kernel() != null && logical.size() > 0 || chain.kernel() != null && "kernel".equals(kind(f))) {
            logical.add(new LogicalLocation().withName(chain.kernel().name()).withFullyQualifiedName(chain.kernel().longName())
                    .withKind("function"));
        }
        List<ThreadFlowLocation> steps = new ArrayList<>();
        Set<Location> related = new LinkedHashSet<>();
        int id = 1;
        for (int i = frames.size() - 1; i >= 0; i--) {
            StackFrame frame = frames.get(i);
            ArtifactRef where = locator.fromStack(frame);
            if (where == null) continue;
            boolean innermost = i == 0;
            Location loc = physical(where).withMessage(new Message().withText(innermost ? launches(chain, frame) : "calls "
                    + (frames.get(i - 1).function() == null || frames.get(i - 1).function().isBlank() ? "the next frame"
                    : frames.get(i - 1).function()) + " (" + frame + ")"));
            if (innermost && !logical.isEmpty()) loc.withLogicalLocations(logical);
            steps.add(new ThreadFlowLocation().withLocation(loc).withNestingLevel(frames.size() - 1 - i));
            if (!(where.uri().equals(primary.uri()) && where.line() == primary.line())) {
                related.add(physical(where).withId(id++).withMessage(new Message().withText(frame + (frame.function() == null
                        || frame.function().isBlank() ? "" : " in " + frame.function()))));
            }
        }
        // one step with nothing below it says no more than the primary location: no flow then
        boolean worthAFlow = steps.size() > 1 || !steps.isEmpty() && !logical.isEmpty();
        List<CodeFlow> flows = !worthAFlow ? List.of() : List.of(new CodeFlow()
                .withMessage(new Message().withText("from the model's code to the GPU"))
                .withThreadFlows(List.of(new ThreadFlow().withLocations(steps))));
        return new Parts(flows, related, logical);
    }

    private static String kind(Finding f) {
        return f.subject() == null ? "profile" : f.subject().kind();
    }

    private static String launches(SourceLines.Chain chain, StackFrame frame) {
        String s = frame + (frame.function() == null || frame.function().isBlank() ? "" : " in " + frame.function());
        if (chain.op() != null) s += " launches op " + chain.op().name();
        if (chain.kernel() != null) s += (chain.op() != null ? ", which runs kernel " : " runs kernel ") + chain.kernel().name() + " on the GPU";
        return s;
    }

    private static Location physical(ArtifactRef where) {
        return new Location().withPhysicalLocation(new PhysicalLocation()
                .withArtifactLocation(new ArtifactLocation().withUri(where.uri()).withUriBaseId(SarifReporter.SRCROOT))
                .withRegion(new Region().withStartLine(where.line())));
    }
}
