package dlproflint.facts;

/**
 * CUDA runtime/driver API calls of one name (version suffix stripped, e.g. {@code cudaMemcpyAsync}).
 *
 * @param category {@code launch}, {@code sync}, {@code memcpy}, {@code memset}, {@code malloc},
 *                 {@code free}, {@code other}
 */
public record ApiStat(String name, String category, Stat time) {
    public long calls() {
        return time.count();
    }
}
