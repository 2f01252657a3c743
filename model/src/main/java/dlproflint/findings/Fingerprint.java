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
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] d = md.digest((ruleId + "\n" + subject.ref()).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
