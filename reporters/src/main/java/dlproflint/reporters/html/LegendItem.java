package dlproflint.reporters.html;

/** One entry of an HTML chart legend: colour key, label, value and share. */
public record LegendItem(String swatch, String label, String value, String share) {
}
