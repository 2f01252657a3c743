package dlproflint.findings;


import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A finding's stable identity: the first 128 bits of SHA-256 over {@code ruleId + "\n" +
 * subject.ref()}, as 32 hex digits. Measurements, messages, severities, pack versions and the profile
 * path are deliberately left out, so the same problem on the same subject keeps its fingerprint when
 * numbers move, a message is reworded, the pack is upgraded or the profile is re-captured elsewhere.
 * Baselines and SARIF {@code partialFingerprints} scope it per profile themselves.
 */
public final class Fingerprint {
    private Fingerprint() {
    }

    public static String of(String ruleId, Subject subject) {
        return sha256Hex(ruleId + "\n" + subject.ref()).substring(0, 32);
    }

    /** The finding's own fingerprint, or the same recipe when it arrives without one (hand-made findings). */
    public static String of(Finding f) {
        if (f.fingerprint() != null && !f.fingerprint().isBlank()) return f.fingerprint();
        return of(f.ruleId(), f.subject() == null ? Subject.profile() : f.subject());
    }

    /** SHA-256 of the UTF-8 bytes, as 64 lower-case hex digits. */
    public static String sha256Hex(String s) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
        }
    }
}
