package dlproflint.facts;


/** Receives GPU work instances one at a time, in GPU start-time order per device. */
@FunctionalInterface
public interface InstanceSink {
    void accept(KernelInstance instance);
}
