package dlproflint.facts;

/** A Python source location from a recorded stack trace. */
public record StackFrame(String file, int line, String function) implements java.io.Serializable {
    @Override
    public String toString() {
        return line > 0 ? file + ":" + line : file;
    }
}
