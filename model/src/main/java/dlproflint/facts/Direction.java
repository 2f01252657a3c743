package dlproflint.facts;

/** Pass direction of an op, as DLProf reports it. */
public enum Direction {
    FPROP, BPROP, NA;

    /** DLProf's spelling in its CSV reports ({@code fprop}, {@code bprop}, {@code na}). */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
