package dlproflint.detail;

import java.util.List;

/**
 * The detail of one profile the views draw.
 *
 * @param timeline    a window of steps with their spans, or null when the format has no per-launch data
 * @param memory      the memory curve, or null when the profile recorded none ({@link #memoryNote} says why)
 * @param modules     time per {@code nn.Module}, longest first; empty without {@code with_modules} data
 * @param memoryNote  why there is no memory curve, or what it measures
 * @param modulesNote why there is no module time
 */
public record ProfileDetail(TimelineWindow timeline, MemoryCurve memory, List<ModuleTime> modules, String memoryNote,
                            String modulesNote) implements java.io.Serializable {
    public ProfileDetail {
        modules = modules == null ? List.of() : List.copyOf(modules);
    }

    public static final ProfileDetail NONE = new ProfileDetail(null, null, List.of(), null, null);
}
