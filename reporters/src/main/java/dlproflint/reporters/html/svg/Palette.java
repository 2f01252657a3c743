package dlproflint.reporters.html.svg;

/**
 * The report's colours, one per kind of time, the same in every chart and legend (as in the DLProf
 * viewer). The data colours are Okabe and Ito's colour-blind-safe set (bluish green, blue, orange,
 * vermillion, reddish purple, sky blue, greys), which stays distinguishable with the common colour-vision
 * deficiencies; every chart also carries text (legend values, tooltips), so colour is never the only signal.
 */
public final class Palette {
    public static final String TC_KERNEL = "#009e73";
    public static final String NON_TC_KERNEL = "#0072b2";
    public static final String MEMORY = "#e69f00";
    public static final String DATALOADER = "#cc79a7";
    public static final String IO = "#56b4e9";
    public static final String CPU = "#7f8c8d";
    public static final String OTHER = "#c8ccd0";
    public static final String IDLE = "#e4e7eb";
    public static final String ELIGIBLE_NOT_TC = "#d55e00";
    public static final String BUSY = "#0072b2";
    public static final String AGGREGATED_BAND = "#eaf4dd";
    public static final String AXIS = "#5f6368";
    public static final String GRID = "#dfe3e8";
    public static final String INK = "#202124";

    private Palette() {
    }
}
