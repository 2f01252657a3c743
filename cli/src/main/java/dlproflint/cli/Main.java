package dlproflint.cli;

/** Entry point of the {@code dlprof-lint} command. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.out.println("dlprof-lint 0.1.0");
    }
}
