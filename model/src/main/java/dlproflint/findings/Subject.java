package dlproflint.findings;

/**
 * What a finding is about.
 *
 * @param kind {@code profile}, {@code op}, {@code kernel}, {@code gpu}, {@code iterations}, {@code api}, {@code metric}
 * @param key  stable identity within the profile (op id, kernel name, device id, ...): part of the
 *             fingerprint, so it must not contain measurements
 * @param name human-readable name shown in reports
 */
public record Subject(String kind, String key, String name) implements java.io.Serializable {
    public static Subject profile() {
        return new Subject("profile", "", "whole profile");
    }

    public static Subject op(String id, String name) {
        return new Subject("op", id, name);
    }

    public static Subject kernel(String name) {
        return new Subject("kernel", name, name);
    }

    public static Subject gpu(int deviceId) {
        return new Subject("gpu", Integer.toString(deviceId), "GPU " + deviceId);
    }

    public static Subject iterations(int start, int stop) {
        return new Subject("iterations", "", "iterations " + start + "-" + stop);
    }

    public static Subject api(String name) {
        return new Subject("api", name, name);
    }

    /** A key metric of the profile ({@code step-time}, ...), what a budget is about. */
    public static Subject metric(String key) {
        return new Subject("metric", key, key);
    }

    /** "kind:key", used in suppression patterns and fingerprints. */
    public String ref() {
        return key == null || key.isEmpty() ? kind : kind + ":" + key;
    }
}
