package dlproflint.facts;

import java.io.IOException;

/**
 * A profile's GPU work instances, streamed on demand without holding them in memory (DLProf's
 * iteration report). The readers provide it; reporters consume it without knowing any reader.
 */
@FunctionalInterface
public interface InstanceSource {
    /**
     * Hands every instance to {@code sink}, in GPU start-time order per device.
     *
     * @throws IOException when the profile cannot be streamed; the cause, when there is one, is the
     *                     reader's own exception
     */
    void forEach(InstanceSink sink) throws IOException;
}
