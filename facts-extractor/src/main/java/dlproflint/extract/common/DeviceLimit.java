package dlproflint.extract.common;

/**
 * How many distinct GPUs a profile may name: {@value #MAX_DEVICES}, the limit the Kineto reader has had since issue
 * 17, now the same for every reader. No machine has more, and the work per GPU (a timeline, a breakdown, a finding)
 * made 100,000 device ids on 100,000 kernels take minutes and gigabytes. A profile past it is refused, not read in part.
 */
public final class DeviceLimit {
    public static final int MAX_DEVICES = 1024;

    private DeviceLimit() {
    }

    /** Thrown by a reader's pass when one more device would pass the limit; the reader turns it into its refusal. */
    public static final class Exceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Exceeded() {
            super("GPU work on more than " + MAX_DEVICES + " distinct device ids: no machine has that many GPUs"
                    + " (a damaged or generated profile)");
        }
    }

    /** Before a reader adds device number {@code known + 1} to its per-device state. */
    public static void admit(int known) {
        if (known >= MAX_DEVICES) throw new Exceeded();
    }
}
