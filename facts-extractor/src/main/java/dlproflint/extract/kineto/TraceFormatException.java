package dlproflint.extract.kineto;

/** The JSON is well formed but is not a PyTorch profiler trace. */
final class TraceFormatException extends Exception {
    TraceFormatException(String message) {
        super(message);
    }
}
