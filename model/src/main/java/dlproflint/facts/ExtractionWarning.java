package dlproflint.facts;

/** Something the reader tolerated (missing optional table, unclosed range, ...). */
public record ExtractionWarning(String code, String message) implements java.io.Serializable {
}
