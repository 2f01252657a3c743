package dlproflint.facts;

/** GPU memsets grouped by API and memory kind. */
public record MemsetStat(String api, String memKind, long count, long bytes, Stat gpuTime) {
    public boolean async() {
        return api != null && api.contains("Async");
    }
}
