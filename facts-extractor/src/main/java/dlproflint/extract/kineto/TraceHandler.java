package dlproflint.extract.kineto;

import com.fasterxml.jackson.databind.JsonNode;

/** Receives what {@link TraceParser} finds, in file order. */
interface TraceHandler {
    /** One event; the object is reused for the next event, so copy what must be kept. */
    void event(TraceEvent e);

    /** The {@code deviceProperties} (or 2021 {@code computeProperties}) array. */
    void deviceProperties(JsonNode devices);

    /** The {@code distributedInfo} object. */
    void distributedInfo(JsonNode info);

    /** {@code baseTimeNanoseconds}: absolute epoch ns of timestamp 0. */
    void baseTimeNanoseconds(long ns);

    /** A top-level scalar such as {@code cuda_driver_version}. */
    void topLevel(String key, String value);

    /** Something in the trace was left out (a limit was reached); goes into the facts' warnings. */
    void warning(String code, String message);
}
