package dlproflint.cli;

/** {@code --color}: {@code auto} colours a terminal unless {@code NO_COLOR} is set (or forces it with {@code FORCE_COLOR}). */
public enum ColorMode {
    AUTO, ALWAYS, NEVER;

    public boolean enabled(CliEnv env) {
        return switch (this) {
            case ALWAYS -> true;
            case NEVER -> false;
            case AUTO -> {
                if (isSet(env.getenv("NO_COLOR"))) yield false;
                if (isSet(env.getenv("FORCE_COLOR"))) yield true;
                yield env.interactive() && !"dumb".equals(env.getenv("TERM"));
            }
        };
    }

    private static boolean isSet(String v) {
        return v != null && !v.isEmpty();
    }
}
