package dlproflint.findings;

/**
 * A rule parameter as its rule declares it (the DRL's {@code @params} annotation is the only place it is written):
 * {@code @params({"maxDataloaderPct = 10: fire when at least this share ..."})}.
 *
 * @param name         parameter name, {@code [A-Za-z][A-Za-z0-9_]*}
 * @param defaultValue the documented default
 * @param description  what it bounds and why the default, in one sentence
 */
public record ParamSpec(String name, double defaultValue, String description) {
}
