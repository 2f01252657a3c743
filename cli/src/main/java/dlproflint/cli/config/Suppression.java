package dlproflint.cli.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * A configured exception to a rule: findings of {@code rule} whose subject reference
 * ({@code Subject.ref()}, e.g. {@code kernel:volta_sgemm_128x64_nn}) matches the glob {@code subject}
 * are hidden, for the stated reason, until {@code expires} (inclusive; null = never).
 */
public record Suppression(String rule, String subject, String reason, LocalDate expires) {

    @JsonCreator
    static Suppression fromYaml(@JsonProperty(value = "rule", required = true) String rule,
                                @JsonProperty("subject") String subject,
                                @JsonProperty(value = "reason", required = true) String reason,
                                @JsonProperty("expires") String expires) {
        if (rule == null || rule.isBlank()) throw new IllegalArgumentException("'rule' must name a rule id");
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("'reason' must say why the finding is accepted");
        }
        LocalDate date = null;
        if (expires != null) {
            try {
                date = LocalDate.parse(expires.trim());
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("'expires' must be a date like 2026-12-31, not '" + expires + "'");
            }
        }
        return new Suppression(rule, subject == null || subject.isBlank() ? "*" : subject, reason, date);
    }

    public boolean expiredOn(LocalDate today) {
        return expires != null && today.isAfter(expires);
    }

    /** Whether this suppression covers a finding of {@code ruleId} about {@code subjectRef}. */
    public boolean matches(String ruleId, String subjectRef) {
        return Glob.matches(rule, ruleId) && Glob.matches(subject, subjectRef);
    }
}
