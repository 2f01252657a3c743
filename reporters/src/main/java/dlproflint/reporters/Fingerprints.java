package dlproflint.reporters;

import dlproflint.findings.Finding;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A finding's stable identity across runs. The engine computes {@link Finding#fingerprint()} from
 * rule id and subject (never measurements); reporters use it as is and fall back to the same
 * recipe when a finding arrives without one, so every report carries a fingerprint.
 */
public final class Fingerprints {
    private Fingerprints() {
    }

    public static String of(Finding f) {
        if (f.fingerprint() != null && !f.fingerprint().isBlank()) return f.fingerprint();
        String subject = f.subject() == null ? "profile" : f.subject().ref();
        return sha256Hex(f.ruleId() + "\0" + subject).substring(0, 32);
    }

    public static String sha256Hex(String s) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
        }
    }
}
