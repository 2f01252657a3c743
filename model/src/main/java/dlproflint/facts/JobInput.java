package dlproflint.facts;

import java.io.Serializable;

/**
 * One profile given to a job, and what became of it.
 *
 * @param profile      the file as given
 * @param format       reader that read it, or null when it could not be read
 * @param rank         the rank it was taken as, -1 when none
 * @param identifiedBy how the rank was found: {@code distributedInfo}, {@code nccl-communicator},
 *                     {@code environment}, {@code file name}, {@code position}; null when not read
 * @param status       {@code used}, {@code unreadable}, {@code duplicate}, {@code other-job}
 * @param note         why it was left out and what was kept instead; empty when used
 */
public record JobInput(String profile, String format, int rank, String identifiedBy, String status, String note)
        implements Serializable {
    public static final String USED = "used";
    public static final String UNREADABLE = "unreadable";
    public static final String DUPLICATE = "duplicate";
    public static final String OTHER_JOB = "other-job";

    public boolean used() {
        return USED.equals(status);
    }
}
