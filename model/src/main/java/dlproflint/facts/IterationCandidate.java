package dlproflint.facts;

/**
 * A step family that would split the profile into iterations, as proposed when nothing did: how often it
 * ran and how evenly. A good step boundary runs once per step at a regular period and spans the run.
 *
 * @param keyNode            the name to pass as {@code --key-node} (a family such as {@code iter_N}, or an op name)
 * @param kind               {@code numbered-ranges}, {@code named-ranges}, {@code dataloader-next},
 *                           {@code optimizer-step} or {@code op}
 * @param instances          how many times it ran
 * @param medianPeriodNs     median time from one instance's start to the next one's
 * @param periodVariationPct coefficient of variation of that period, in percent (0 = perfectly regular, capped at
 *                           100 = no regular period)
 * @param coveragePct        share of the profile's active span between its first and last instance (one period
 *                           added), in percent
 */
public record IterationCandidate(String keyNode, String kind, int instances, long medianPeriodNs,
                                 double periodVariationPct, double coveragePct) {
}
