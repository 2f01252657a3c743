package dlproflint.reporters.dlprof;

/**
 * How DLProf prints one value. DLProf 1.8's CSVs always quote free-text columns (op and kernel names,
 * shapes, stack traces), leave enumerated and numeric columns bare, print averages with one decimal
 * ({@code 2306368.0}) and booleans as {@code yes}/{@code no}. The JSON writer uses the same kinds to
 * choose a JSON type.
 */
enum CellType {
    /** Free text, always quoted; null prints as {@code ""}. */
    QUOTED,
    /** Short enumerated text (direction, data type), bare unless it holds a comma, quote or line break. */
    BARE,
    /**
     * A value of the summary's key/value sections, bare even with commas (DLProf prints
     * {@code GPU Name(s),A100, A100}); quoted only when it holds a quote or a line break.
     */
    LINE,
    /** Integer (Long/Integer). */
    INT,
    /** Double, printed rounded to one decimal ({@link Decimals#oneDecimal(double)}). */
    DECIMAL,
    /** Boolean printed {@code yes}/{@code no}. */
    YES_NO
}
