package dlproflint.reporters.html.svg;

/** One labelled, coloured quantity of a chart (a bar, or a segment of a stacked bar). */
public record Part(String label, double value, String color, String tooltip) {
    public Part {
        if (Double.isNaN(value) || value < 0) value = 0;
    }
}
