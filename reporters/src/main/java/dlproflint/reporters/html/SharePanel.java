package dlproflint.reporters.html;

import dlproflint.findings.Units;
import dlproflint.reporters.html.svg.Part;
import dlproflint.reporters.html.svg.SvgStackedBar;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * A dashboard panel that splits one total into parts: a stacked bar, its legend, and (optionally) a
 * small table of GPU time and counts per part, as DLProf's Op/Kernel Summary and Details panels show.
 *
 * @param headline the panel's key number (e.g. the tensor-core efficiency), or null
 * @param empty    there is nothing to split (the template says so instead of drawing an empty bar)
 */
public record SharePanel(String headline, String chart, List<LegendItem> legend, List<Row> rows, boolean empty) {

    /** A table row: label, GPU time, count of items, calls. */
    public record Row(String label, String gpuTime, String count, String calls, String swatch) {
    }

    static SharePanel of(String title, String headline, List<Part> parts, DoubleFunction<String> valueFormat,
                         List<Row> rows) {
        double total = parts.stream().mapToDouble(Part::value).sum();
        List<LegendItem> legend = new ArrayList<>();
        List<Part> withTips = new ArrayList<>();
        for (Part p : parts) {
            String share = total > 0 ? Units.share(100.0 * p.value() / total) : "\u2014";
            String value = valueFormat.apply(p.value());
            legend.add(new LegendItem(SvgStackedBar.swatch(p.color()), p.label(), value, share));
            withTips.add(new Part(p.label(), p.value(), p.color(), p.label() + ": " + value + " (" + share + ")"));
        }
        return new SharePanel(headline, SvgStackedBar.render(title, withTips, 520), legend, rows, total <= 0);
    }
}
