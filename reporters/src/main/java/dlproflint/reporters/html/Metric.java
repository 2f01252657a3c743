package dlproflint.reporters.html;

/** A labelled value in a summary card or key/value table; {@code hint} explains how it is computed. */
public record Metric(String label, String value, String hint) {
    public static Metric of(String label, String value) {
        return new Metric(label, value, null);
    }
}
