package dlproflint.reporters.html.svg;

/**
 * The report's colours, one per kind of time, the same in every chart and legend (as in the DLProf
 * viewer). Chosen to stay distinguishable for common colour-vision deficiencies; every chart also
 * carries text, so colour is never the only signal.
 */
public final class Palette {
    public static final String TC_KERNEL = "#4e9a06";
    public static final String NON_TC_KERNEL = "#3465a4";
    public static final String MEMORY = "#e07b00";
    public static final String DATALOADER = "#8f5fbf";
    public static final String IO = "#c4467c";
    public static final String CPU = "#7f8c8d";
    public static final String OTHER = "#c8ccd0";
    public static final String IDLE = "#e4e7eb";
    public static final String ELIGIBLE_NOT_TC = "#cc3d3d";
    public static final String BUSY = "#3465a4";
    public static final String AGGREGATED_BAND = "#eaf4dd";
    public static final String AXIS = "#5f6368";
    public static final String GRID = "#dfe3e8";
    public static final String INK = "#202124";

    private Palette() {
    }
}
