package dlproflint.extract.kernels;

import dlproflint.facts.Precision;

import java.util.regex.Pattern;

/**
 * One line of {@code kernel-catalogue.tsv}.
 *
 * @param precision        fixed precision, or null with {@code autoPrecision}
 * @param autoPrecision    the precision comes from the name's type tokens
 * @param fallback         precision when the tokens say nothing ({@code auto:X}), or null
 * @param minCcFromName    the lowest compute capability is read from the name ({@code smNN})
 * @param minMajor         fixed lowest compute capability (major), -1 for none
 */
public record CatalogueEntry(int line, Pattern pattern, String family, Precision precision, boolean autoPrecision,
                             Precision fallback, boolean tensorCores, boolean minCcFromName, int minMajor,
                             int minMinor, String source, String example) {
}
