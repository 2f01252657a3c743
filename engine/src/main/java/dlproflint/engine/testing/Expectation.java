package dlproflint.engine.testing;

/**
 * One line of a case's {@code expect:} list: {@code count} findings of {@code rule}; when
 * {@code messageContains} is set, at least {@code count} of that rule's findings contain it in
 * their problem or recommendation text.
 */
public record Expectation(String rule, int count, String messageContains) {
    @Override
    public String toString() {
        return count + " x " + rule + (messageContains == null ? "" : " (message containing \"" + messageContains + "\")");
    }
}
