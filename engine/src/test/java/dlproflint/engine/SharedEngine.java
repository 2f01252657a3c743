package dlproflint.engine;

/** The "valid" test pack compiled once per test JVM (compiling costs seconds on a small machine). */
final class SharedEngine {
    private static LintEngine engine;

    private SharedEngine() {
    }

    static synchronized LintEngine get() throws RuleLoadException {
        if (engine == null) engine = LintEngine.load(TestPacks.only("valid"));
        return engine;
    }
}
